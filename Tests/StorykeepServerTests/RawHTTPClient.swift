import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends bytes to the live test server over a socket of its own, as they are: requests that no
/// HTTP client would write (a `Content-Length` that lies, a header line without a colon, a NUL
/// in a header). Blocking socket calls, on a thread of their own so that the server's tasks keep
/// the cooperative pool.
enum RawHTTPClient {
    struct Answer {
        /// The status of the first response, or nil when the server closed without answering.
        var status: Int?
        var bytes: [UInt8]
        /// Whether the server neither answered nor closed within the timeout.
        var timedOut = false
    }

    /// No answer, and the connection still open, when the timeout passed.
    struct TimedOut: Error, CustomStringConvertible {
        var description: String { "no answer within the timeout" }
    }

    /// Connects to 127.0.0.1:`port`, writes `request`, closes the sending side (so that a server
    /// waiting for more body sees the end), and reads what comes back until the server closes or
    /// `timeout` passes without data.
    static func send(_ request: [UInt8], port: Int, timeout: Duration = .seconds(20)) async -> Answer {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: exchange(request, port: port, timeout: timeout))
            }.start()
        }
    }

    private static func exchange(_ request: [UInt8], port: Int, timeout: Duration) -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return Answer(status: nil, bytes: []) }
        defer { close(fd) }
        var seconds = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return Answer(status: nil, bytes: []) }
        var sent = 0
        while sent < request.count {
            // MSG_NOSIGNAL: a server that closes early gives EPIPE here, not a signal that ends the tests.
            let count = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return Answer(status: status(of: received), bytes: received, timedOut: true)
            }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return Answer(status: status(of: received), bytes: received)
    }

    /// The status code of `HTTP/1.1 NNN ...` at the start of `bytes`.
    private static func status(of bytes: [UInt8]) -> Int? {
        let head = String(decoding: bytes.prefix(12), as: UTF8.self)
        guard head.hasPrefix("HTTP/1."), head.count >= 12 else { return nil }
        return Int(head.dropFirst(9).prefix(3))
    }
}
