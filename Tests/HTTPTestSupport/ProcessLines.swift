import Foundation

/// Reads `handle` (a running process's standard output) line by line, on a thread of its own (not
/// the concurrency pool, nor Dispatch's, whose few threads its blocking reads would starve), until
/// a line holds `pattern`'s first capture: that capture, or nil when the output ends first. The
/// rest of the output is read and dropped, so the process never blocks on a full pipe; `each`,
/// when given, receives every line, those after the capture too.
///
/// The reading thread itself looks for the pattern. It once handed the lines to the awaiting task
/// through a stream that kept only the newest 64: a server logging at `trace` on a busy machine
/// wrote more than that before the task was scheduled, the line with its port was dropped, and
/// the test waited for ever (seen twice in fresh-clone runs, with the server up and never called).
public func firstCapture(
    in handle: FileHandle, of pattern: Regex<(Substring, Substring)>, each: (@Sendable (String) -> Void)? = nil
) async -> String? {
    nonisolated(unsafe) let pattern = pattern  // only the reading thread uses it
    return await withCheckedContinuation { continuation in
        Thread {
            var found = false
            var line: [UInt8] = []
            while let read = try? handle.read(upToCount: 1), let byte = read.first {
                guard byte == UInt8(ascii: "\n") else {
                    line.append(byte)
                    continue
                }
                let text = String(decoding: line, as: UTF8.self)
                line = []
                each?(text)
                if !found, let match = text.firstMatch(of: pattern) {
                    found = true
                    continuation.resume(returning: String(match.1))
                }
            }
            if !found { continuation.resume(returning: nil) }
        }.start()
    }
}
