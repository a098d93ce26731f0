#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// Splits a `multipart/form-data` body (RFC 7578; the framing is RFC 2046 §5.1.1's) into its
/// parts as its chunks arrive, keeping no more than a few bytes between chunks: each part's
/// header lines, then its body as slices of the chunks (not copies), then its end.
///
/// Finding the delimiter (`CRLF--boundary`) stays cheap whatever a part holds: the scanner
/// jumps from one CR to the next with `memchr` and compares the delimiter only there, and as the
/// boundary may not contain a CR, the bytes a comparison has read are never compared again, so
/// the work is linear in the body. (multipart-kit's `MultipartParser`, used before, copied and
/// reported a buffer at every CR: 6 to 15 MB/s on a file of CR LF bytes, in a release build.)
///
/// The preamble (before the first delimiter) and the epilogue (after the closing one) are
/// skipped. A body may start with the delimiter without its CRLF, as RFC 2046 allows. Transport
/// padding (spaces and tabs) may follow a delimiter before its CRLF.
struct GraphQLHTTPMultipartScanner {
    /// What `scan` reports, in order, for each part: `headers` once, `body` any number of times,
    /// `end` once.
    enum Event {
        /// The part's header lines, names as sent (compare them ignoring case), values trimmed.
        case headers([(name: String, value: String)])
        /// The next bytes of the part's body.
        case body(ByteBuffer)
        /// The part's body ended (a delimiter followed it).
        case end
    }

    /// A body that does not follow RFC 2046's framing.
    struct Malformed: Error, Equatable {
        var reason: String
    }

    private enum State {
        /// Before the first delimiter: bytes are skipped.
        case preamble
        /// After a delimiter: `--` (the closing delimiter), or padding and CRLF (a part follows).
        case afterDelimiter(seen: [UInt8])
        /// Reading a part's header block, from the CRLF that ended the delimiter's line up to
        /// the empty line, CRLF CRLF.
        case headers(block: [UInt8])
        case body
        /// After the closing delimiter: bytes are skipped.
        case epilogue
    }

    /// The longest header block of a part, and the most padding after a delimiter.
    static let maxHeaderBytes = 16 * 1024
    static let maxPaddingBytes = 64

    /// `CRLF--boundary`.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// The end of the previous chunk, when it may be the start of a delimiter.
    private var carry: ByteBuffer

    /// Checks `boundary` as RFC 2046 defines it: 1 to 70 of its characters, no space at the end.
    init(boundary: String) throws(Malformed) {
        let bytes = Array(boundary.utf8)
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        guard (1...70).contains(bytes.count), bytes.allSatisfy(allowed.contains), bytes.last != UInt8(ascii: " ") else {
            throw Malformed(reason: "the boundary must have 1 to 70 of the characters RFC 2046 allows")
        }
        delimiter = Array("\r\n--".utf8) + bytes
        // As if a CRLF came before the body, so that a delimiter at its very start is found.
        carry = ByteBuffer(bytes: [0x0D, 0x0A])
    }

    /// Whether the closing delimiter has been read (what follows it is ignored).
    var isComplete: Bool {
        if case .epilogue = state { return true }
        return false
    }

    /// Reads the next chunk of the body, reporting what it completes to `report`. Bytes that
    /// may begin a delimiter are kept for the next chunk. Throws ``Malformed``, or what `report`
    /// throws, which stops the scan.
    mutating func scan(_ chunk: ByteBuffer, _ report: (Event) throws -> Void) throws {
        var buffer = chunk
        if carry.readableBytes > 0 {
            carry.writeBuffer(&buffer)
            buffer = carry
            carry = ByteBuffer()
        }
        var position = buffer.readerIndex
        let end = buffer.writerIndex
        while position < end {
            switch state {
            case .epilogue:
                return
            case .preamble, .body:
                position = try scanForDelimiter(in: buffer, from: position, report: report)
            case .afterDelimiter(var seen):
                let byte = buffer.getInteger(at: position, as: UInt8.self)!
                position += 1
                seen.append(byte)
                state = try Self.afterDelimiter(seen)
            case .headers(var block):
                let taken = min(end - position, Self.maxHeaderBytes + 2 - block.count)
                let searchFrom = max(block.count - 3, 0)
                block.append(contentsOf: buffer.getBytes(at: position, length: taken)!)
                guard let blank = Self.emptyLine(in: block, from: searchFrom) else {
                    guard block.count <= Self.maxHeaderBytes else {
                        throw Malformed(reason: "a part's headers are longer than \(Self.maxHeaderBytes) bytes")
                    }
                    position += taken
                    state = .headers(block: block)
                    continue
                }
                // The block is CRLF, header lines each ending in CRLF, then CRLF.
                position += taken - (block.count - (blank + 4))
                let headers = try Self.headers(block[2..<blank + 2])
                state = .body
                try report(.headers(headers))
            }
        }
    }

    /// Whether the body is complete: it must have ended with the closing delimiter.
    func finish() throws(Malformed) {
        switch state {
        case .epilogue: return
        case .preamble: throw Malformed(reason: "it has no boundary line")
        default: throw Malformed(reason: "it ends before its closing boundary")
        }
    }

    // MARK: - Parts

    /// Reports the body bytes from `start` up to the next delimiter (or up to what may begin one
    /// at the end of the chunk, which is kept in `carry`), and moves past the delimiter. Skipped
    /// instead of reported in the preamble. Returns where to go on.
    private mutating func scanForDelimiter(in buffer: ByteBuffer, from start: Int, report: (Event) throws -> Void) throws -> Int {
        let end = buffer.writerIndex
        let found = buffer.withUnsafeReadableBytes { bytes in
            Self.delimiterMatch(in: bytes, from: start - buffer.readerIndex, delimiter: delimiter)
        }
        let inPart = if case .body = state { true } else { false }
        switch found {
        case .none:
            if inPart { try emit(buffer, from: start, to: end, report) }
            return end
        case .partial(let offset):
            let at = buffer.readerIndex + offset
            if inPart { try emit(buffer, from: start, to: at, report) }
            carry = buffer.getSlice(at: at, length: end - at)!
            return end
        case .whole(let offset):
            let at = buffer.readerIndex + offset
            if inPart {
                try emit(buffer, from: start, to: at, report)
                try report(.end)
            }
            state = .afterDelimiter(seen: [])
            return at + delimiter.count
        }
    }

    private func emit(_ buffer: ByteBuffer, from start: Int, to end: Int, _ report: (Event) throws -> Void) throws {
        guard end > start else { return }
        try report(.body(buffer.getSlice(at: start, length: end - start)!))
    }

    private enum DelimiterMatch {
        /// The delimiter starts at this offset.
        case whole(Int)
        /// The bytes from this offset to the end are the delimiter's first bytes.
        case partial(Int)
    }

    /// The first delimiter in `bytes` from `start`, whole or cut off by the end. Jumps between
    /// CRs with `memchr`; the delimiter has no CR but its first byte, so a failed comparison
    /// reads only bytes that the next `memchr` passes over once: linear time.
    private static func delimiterMatch(in bytes: UnsafeRawBufferPointer, from start: Int, delimiter: [UInt8]) -> DelimiterMatch? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = start
        while offset < bytes.count {
            guard let cr = memchr(base + offset, 0x0D, bytes.count - offset) else { return nil }
            let at = base.distance(to: UnsafeRawPointer(cr))
            let available = min(delimiter.count, bytes.count - at)
            let matches = delimiter.withUnsafeBytes { memcmp(base + at, $0.baseAddress!, available) == 0 }
            if matches { return available == delimiter.count ? .whole(at) : .partial(at) }
            offset = at + 1
        }
        return nil
    }

    /// The state after the bytes `seen` that follow a delimiter.
    private static func afterDelimiter(_ seen: [UInt8]) throws(Malformed) -> State {
        let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, hyphen = UInt8(ascii: "-")
        if seen == [hyphen, hyphen] { return .epilogue }
        if seen == [hyphen] { return .afterDelimiter(seen: seen) }
        let padding = seen.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let rest = seen[padding.endIndex...]
        if rest.elementsEqual([cr, lf]) { return .headers(block: [cr, lf]) }
        if rest.isEmpty || rest.elementsEqual([cr]), padding.count <= maxPaddingBytes { return .afterDelimiter(seen: seen) }
        throw Malformed(reason: "a boundary line has something after its boundary")
    }

    /// Where CRLF CRLF starts in `block`, searching from `start`.
    private static func emptyLine(in block: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < block.count {
            if block[index] == 0x0D, block[index + 1] == 0x0A, block[index + 2] == 0x0D, block[index + 3] == 0x0A {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The header lines of `block`, each ending in CRLF: `name: value`, the name a token, the
    /// value without CR, LF or NUL.
    private static func headers(_ block: ArraySlice<UInt8>) throws(Malformed) -> [(name: String, value: String)] {
        let malformed = Malformed(reason: "a part has a malformed header line")
        var headers: [(name: String, value: String)] = []
        var rest = block
        while let lineEnd = rest.firstIndex(of: 0x0D) {
            guard lineEnd + 1 < rest.endIndex, rest[lineEnd + 1] == 0x0A else { throw malformed }
            let line = rest[..<lineEnd]
            rest = rest[(lineEnd + 2)...]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(isTokenByte), !line.contains(0x0A), !line.contains(0)
            else { throw malformed }
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var value = line[(colon + 1)...]
            while let first = value.first, isSpace(first) { value = value.dropFirst() }
            while let last = value.last, isSpace(last) { value = value.dropLast() }
            headers.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        guard rest.isEmpty else { throw malformed }
        return headers
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
