import Foundation
import HTTPTestSupport
import Testing

/// A webhook receiver in another process (Client/webhook_receiver.py, Python's http.server), which
/// checks each message's signature with Python's hmac and logs what it received.
/// Its properties are set once, when it starts, and only read after.
final class WebhookReceiver: @unchecked Sendable {
    /// A Standard Webhooks secret, `whsec_` and 32 bytes in base64.
    static let secret = "whsec_" + Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()

    /// One message received.
    struct Message: Decodable, Sendable {
        var path: String
        var id: String
        var timestamp: String
        /// Whether Python found the signature right.
        var verified: Bool
        var body: String
        /// The status the receiver answered.
        var answered: Int

        /// The body's `type` and `data`.
        var type: String? { json["type"] as? String }
        var data: [String: String] { json["data"] as? [String: String] ?? [:] }
        private var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    let port: Int
    private let process: Process
    private let input: Pipe
    private let log: URL

    /// Starts the receiver; it listens once this returns.
    init() async throws {
        log = FileManager.default.temporaryDirectory.appending(path: "webhooks-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/webhook_receiver.py").path
        process.arguments = ["python3", script, Self.secret, log.path]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let announced = await firstCapture(in: output.fileHandleForReading, of: /^port ([0-9]+)$/)
        port = try #require(announced.flatMap { Int($0) }, "the receiver did not say its port")
    }

    /// The URL of `path` on the receiver.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Every message received so far, in order.
    func messages() throws -> [Message] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Message.self, from: Data($0.utf8))
        }
    }

    /// Stops the receiver (it exits when its standard input closes) and removes its log, without
    /// waiting for it to exit: a `defer` would hold a thread of the concurrency pool meanwhile.
    func stop() {
        try? input.fileHandleForWriting.close()
        try? FileManager.default.removeItem(at: log)
    }
}
