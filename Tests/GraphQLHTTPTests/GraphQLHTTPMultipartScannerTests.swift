import NIOCore
import Testing

@testable import GraphQLHTTP

/// The multipart framing of RFC 2046 §5.1.1 (RFC 7578 for form data), read chunk by chunk.
@Suite struct GraphQLHTTPMultipartScannerTests {
    /// A part as the scanner reported it: its headers, and its body with the pieces joined.
    struct Part: Equatable {
        var headers: [String]
        var body: [UInt8]
    }

    /// Scans `body` cut into `chunks`; the parts, or the error.
    static func scan(_ chunks: [[UInt8]], boundary: String = "b0und") throws -> [Part] {
        var scanner = try GraphQLHTTPMultipartScanner(boundary: boundary)
        var parts: [Part] = []
        var open = false
        for chunk in chunks {
            try scanner.scan(ByteBuffer(bytes: chunk)) { event in
                switch event {
                case .headers(let headers):
                    #expect(!open, "headers inside a part")
                    parts.append(Part(headers: headers.map { "\($0.name)=\($0.value)" }, body: []))
                    open = true
                case .body(let piece):
                    #expect(open, "body outside a part")
                    #expect(piece.readableBytes > 0, "an empty piece")
                    parts[parts.count - 1].body += Array(piece.readableBytesView)
                case .end:
                    #expect(open, "end outside a part")
                    open = false
                }
            }
        }
        try scanner.finish()
        return parts
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A preamble, a part whose body holds what looks almost like the delimiter, an empty part,
    /// a part without headers, a binary part ending in CR, and an epilogue with a delimiter in it.
    static let body: [UInt8] =
        bytes("preamble\r\n--b0un\r\n--b0und") + bytes(" \t\r\n")
        + bytes("Content-Disposition: form-data; name=\"text\"\r\nX-Note:   spaced  \r\n\r\n")
        + bytes("line\r\n--b0un\r--b0und-\r\n-\r\r\n\r\n--b0unD")
        + bytes("\r\n--b0und\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n")
        + bytes("\r\n--b0und\r\n\r\nno headers")
        + bytes("\r\n--b0und\r\nContent-Type: application/octet-stream\r\n\r\n") + [0, 0x0D, 0xFF, 0x0A, 0x0D]
        + bytes("\r\n--b0und--\r\nepilogue\r\n--b0und\r\nignored")
    static let parts = [
        Part(headers: ["Content-Disposition=form-data; name=\"text\"", "X-Note=spaced"],
             body: bytes("line\r\n--b0un\r--b0und-\r\n-\r\r\n\r\n--b0unD")),
        Part(headers: ["Content-Disposition=form-data; name=\"empty\""], body: []),
        Part(headers: [], body: bytes("no headers")),
        Part(headers: ["Content-Type=application/octet-stream"], body: [0, 0x0D, 0xFF, 0x0A, 0x0D]),
    ]

    @Test func partsComeOutTheSameHoweverTheBodyIsCut() throws {
        #expect(try Self.scan([Self.body]) == Self.parts)
        for cut in 0...Self.body.count {
            let parts = try Self.scan([Array(Self.body[..<cut]), Array(Self.body[cut...])])
            #expect(parts == Self.parts, "cut at \(cut)")
        }
        #expect(try Self.scan(Self.body.map { [$0] }) == Self.parts)
        for size in [2, 3, 7, 11, 13] {
            let chunks = stride(from: 0, to: Self.body.count, by: size).map { Array(Self.body[$0..<min($0 + size, Self.body.count)]) }
            #expect(try Self.scan(chunks) == Self.parts, "chunks of \(size)")
        }
    }

    @Test func aBodyMayStartWithItsDelimiter() throws {
        let parts = try Self.scan([Self.bytes("--b0und\r\nA: 1\r\n\r\nx\r\n--b0und--")])
        #expect(parts == [Part(headers: ["A=1"], body: Self.bytes("x"))])
        #expect(try Self.scan([Self.bytes("--b0und--\r\n")]) == [])
    }

    @Test func aLongBinaryPartIsReportedWhole() throws {
        let file = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 8) } + Self.bytes("\r\n--b0un")
        let body = Self.bytes("--b0und\r\n\r\n") + file + Self.bytes("\r\n--b0und--")
        let chunks = stride(from: 0, to: body.count, by: 65_536).map { Array(body[$0..<min($0 + 65_536, body.count)]) }
        #expect(try Self.scan(chunks) == [Part(headers: [], body: file)])
    }

    @Test(arguments: [
        ("--b0und\r\nA: 1\r\n\r\nx", "it ends before its closing boundary"),
        ("no delimiter at all", "it has no boundary line"),
        ("--b0undX\r\n\r\nx\r\n--b0und--", "a boundary line has something after its boundary"),
        ("--b0und-x\r\n", "a boundary line has something after its boundary"),
        ("--b0und\rx", "a boundary line has something after its boundary"),
        ("--b0und\r\nno colon\r\n\r\nx\r\n--b0und--", "a part has a malformed header line"),
        ("--b0und\r\n: empty name\r\n\r\nx\r\n--b0und--", "a part has a malformed header line"),
        ("--b0und\r\nBad Name: v\r\n\r\nx\r\n--b0und--", "a part has a malformed header line"),
        ("--b0und\r\nA: bare\rCR\r\n\r\nx\r\n--b0und--", "a part has a malformed header line"),
        ("--b0und\r\nA: bare\nLF\r\n\r\nx\r\n--b0und--", "a part has a malformed header line"),
    ])
    func malformedBodiesAreRefused(_ body: String, _ reason: String) {
        #expect(throws: GraphQLHTTPMultipartScanner.Malformed(reason: reason)) { try Self.scan([Self.bytes(body)]) }
    }

    @Test func headersAndPaddingAreBounded() {
        let long = "--b0und\r\nA: " + String(repeating: "v", count: GraphQLHTTPMultipartScanner.maxHeaderBytes) + "\r\n\r\n"
        #expect(throws: GraphQLHTTPMultipartScanner.Malformed(reason: "a part's headers are longer than 16384 bytes")) {
            try Self.scan([Self.bytes(long)])
        }
        let padded = "--b0und" + String(repeating: " ", count: 65) + "\r\n\r\n"
        #expect(throws: GraphQLHTTPMultipartScanner.Malformed(reason: "a boundary line has something after its boundary")) {
            try Self.scan([Self.bytes(padded)])
        }
    }

    @Test(arguments: ["", String(repeating: "x", count: 71), "trailing ", "new\r\nline", "quote\"", "émoji"])
    func boundariesOutsideRFC2046AreRefused(_ boundary: String) {
        #expect(throws: GraphQLHTTPMultipartScanner.Malformed.self) { try GraphQLHTTPMultipartScanner(boundary: boundary) }
    }

    @Test func everyCharacterRFC2046AllowsMakesABoundary() throws {
        let boundary = "09azAZ'()+_,-./:=? x"
        let parts = try Self.scan([Self.bytes("--\(boundary)\r\n\r\nbody\r\n--\(boundary)--")], boundary: boundary)
        #expect(parts == [Part(headers: [], body: Self.bytes("body"))])
    }

    @Test func whatTheReportThrowsStopsTheScan() throws {
        struct Stop: Error {}
        var scanner = try GraphQLHTTPMultipartScanner(boundary: "b0und")
        var events = 0
        #expect(throws: Stop.self) {
            try scanner.scan(ByteBuffer(bytes: Self.body)) { _ in
                events += 1
                if events == 2 { throw Stop() }
            }
        }
        #expect(events == 2)
    }
}
