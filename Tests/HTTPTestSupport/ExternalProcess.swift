import Foundation

/// Runs `work`, which blocks (waits for a process, reads a pipe to its end), on a thread of its
/// own, and waits for it without holding a thread of the concurrency pool: on two cores the pool
/// has two threads, and the servers, pools and clients of the tests running beside need them.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Runs a command (through `/usr/bin/env`) and waits for it without blocking a thread of the
/// concurrency pool (the server under test needs them): its exit status and what it printed on
/// standard output and standard error.
public func runProcess(_ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await onOwnThread {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read before waiting: a process whose output fills the pipe waits for its reader.
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
