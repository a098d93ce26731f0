import Foundation

/// Reads `handle` (a running process's standard output) line by line, on a thread of its own (not
/// the concurrency pool, nor Dispatch's, whose few threads its blocking reads would starve), until
/// a line holds `pattern`'s first capture: that capture, or nil when the output ends first. The
/// rest of the output is read and dropped, so the process never blocks on a full pipe; `each`,
/// when given, receives every line, those after the capture too.
public func firstCapture(
    in handle: FileHandle, of pattern: Regex<(Substring, Substring)>, each: (@Sendable (String) -> Void)? = nil
) async -> String? {
    let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(64))
    Thread {
        var line: [UInt8] = []
        while let read = try? handle.read(upToCount: 1), let byte = read.first {
            if byte == UInt8(ascii: "\n") {
                let text = String(decoding: line, as: UTF8.self)
                each?(text)
                continuation.yield(text)
                line = []
            } else {
                line.append(byte)
            }
        }
        continuation.finish()
    }.start()
    for await line in lines {
        if let match = line.firstMatch(of: pattern) { return String(match.1) }
    }
    return nil
}
