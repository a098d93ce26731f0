import Foundation
import StorykeepCore
import StorykeepTestSupport
import Testing

@testable import StorykeepPrivacy

/// The data export's ZIP writer, read back by Python's zipfile.
@Suite struct PrivacyZipTests {
    @Test func crc32IsTheStandardOne() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test func pythonOpensTheArchiveAndEveryChecksumHolds() async throws {
        var zip = ZipWriter(date: ISO8601DateFormatter().date(from: "2026-11-24T22:51:26Z")!)
        let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try zip.add("README.txt", Array("hello\n".utf8))
        try zip.add("media/ünïcode name.bin", big)
        try zip.add("empty.json", [])
        let bytes = try zip.finish()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID()).zip").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import sys, zipfile, hashlib
            z = zipfile.ZipFile(sys.argv[1])
            print(z.testzip() or 'ok')
            for i in z.infolist():
                print(i.filename, i.file_size, i.date_time, hashlib.sha256(z.read(i)).hexdigest()[:12])
            """
        let (status, output) = try await runProcess(["python3", "-c", script, path])
        #expect(status == 0, "\(output)")
        let bigHash = Crypto.hex(Crypto.sha256(big)).prefix(12)
        let emptyHash = Crypto.hex(Crypto.sha256([UInt8]())).prefix(12)
        let helloHash = Crypto.hex(Crypto.sha256(Array("hello\n".utf8))).prefix(12)
        #expect(output == """
            ok
            README.txt 6 (2026, 11, 24, 22, 51, 26) \(helloHash)
            media/ünïcode name.bin 200000 (2026, 11, 24, 22, 51, 26) \(bigHash)
            empty.json 0 (2026, 11, 24, 22, 51, 26) \(emptyHash)

            """)
    }
}
