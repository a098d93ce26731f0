import AsyncHTTPClient
import Foundation
import NIOCore
import StorykeepCore
import StorykeepTestSupport
import Synchronization

/// `clients` clients of a young person, each uploading files of `bytes` bytes (`uploadMedia`,
/// GraphQL multipart) one after another until ``stop()``, every file different, each recording
/// what it sent (the file's size and SHA-256) and what the server answered: the file it
/// acknowledged (its id, with the size and SHA-256 it says it stored) or what went wrong.
final class UploadLoad: Sendable {
    /// One upload and its answer.
    struct Upload: Sendable {
        /// The SHA-256 of the bytes sent, in hexadecimal.
        var sha256: String
        var sent: ContinuousClock.Instant
        var at: ContinuousClock.Instant
        var mediaID: String?
        var error: String?
    }

    static let upload = "mutation($file: Upload!) { uploadMedia(file: $file) { id byteSize sha256 } }"

    /// What the clients share: whether to go on, the uploads answered and those still out.
    private final class Record: Sendable {
        let uploads = Mutex<[Upload]>([])
        let outstanding = Mutex<[Int: ContinuousClock.Instant]>([:])
        let running = Atomic<Bool>(true)
    }

    let bytes: Int
    private let record = Record()
    private let clients: Task<Void, Never>

    /// `timeout`: how long an upload may wait for its answer.
    init(server: any Served, slug: String, token: String, clients count: Int, bytes: Int, timeout: TimeAmount = .seconds(60)) {
        self.bytes = bytes
        clients = WriteLoad.clients(count, while: { [record] in record.running.load(ordering: .relaxed) }) { [record] http, client, sent in
            let file = Self.file(bytes: bytes, mark: "upload \(client)-\(sent)")
            let sha256 = Crypto.hex(Crypto.sha256(file))
            var upload = Upload(sha256: sha256, sent: .now, at: .now)
            record.outstanding.withLock { $0[client] = upload.sent }
            (upload.mediaID, upload.error) = await WriteLoad.outcome {
                try await server.graphQL(
                    slug: slug, token: token, Self.upload, ["file": NSNull()], files: [("variables.file", file)], client: http,
                    timeout: timeout)
            } acknowledged: { reply in
                let stored = (reply.data("uploadMedia", "byteSize") as? NSNumber)?.intValue == bytes
                    && reply.data("uploadMedia", "sha256") as? String == sha256
                return stored ? reply.data("uploadMedia", "id") as? String : nil
            }
            upload.at = .now
            record.outstanding.withLock { $0[client] = nil }
            record.uploads.withLock { $0.append(upload) }
        }
    }

    /// A PNG (by its first bytes) of `count` bytes that no other file here has: `mark` after the
    /// signature, then a pattern.
    static func file(bytes count: Int, mark: String) -> [UInt8] {
        var file = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(mark.utf8)
        let page = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        file.reserveCapacity(count)
        while file.count < count { file += page.prefix(count - file.count) }
        return file
    }

    /// Stops uploading and waits for the answers of what was sent.
    func stop() async {
        record.running.store(false, ordering: .relaxed)
        await clients.value
    }

    /// Every upload answered so far.
    var uploads: [Upload] { record.uploads.withLock { $0 } }

    /// When each upload still waiting for its answer was sent.
    var outstanding: [ContinuousClock.Instant] { record.outstanding.withLock { Array($0.values) } }

    /// Every error answered, once each with how many times.
    var errors: [String: Int] {
        WriteLoad.tally(record.uploads.withLock { $0.compactMap(\.error) })
    }

    /// How long after `fault` the first upload sent after it was acknowledged, or nil.
    func recovery(after fault: ContinuousClock.Instant) -> Duration? {
        record.uploads.withLock { $0.filter { $0.mediaID != nil && $0.sent > fault }.map(\.at).min() }.map { fault.duration(to: $0) }
    }

    /// Waits up to `limit` after `fault` for ``recovery(after:)``.
    func awaitRecovery(after fault: ContinuousClock.Instant, limit: Duration) async throws -> Duration? {
        try await WriteLoad.awaitRecovery(after: fault, limit: limit) { recovery(after: fault) }
    }
}
