import Foundation
import Synchronization
import StorykeepTestSupport
import Testing

/// `firstCapture` (Tests/HTTPTestSupport/ProcessLines.swift), which tests use to learn the port of
/// a server they started: the line it looks for is found however much the process writes after
/// it, and however late the awaiting task gets a thread.
@Suite struct ProcessLinesTests {
    /// Writes `lines` into a new pipe from a thread of its own, then closes it: the reading end.
    static func pipe(writing lines: [String]) -> FileHandle {
        let pipe = Pipe()
        Thread {
            for line in lines { pipe.fileHandleForWriting.write(Data((line + "\n").utf8)) }
            try? pipe.fileHandleForWriting.close()
        }.start()
        return pipe.fileHandleForReading
    }

    @Test func theLineIsFoundThoughThousandsFollowItWhileTheTaskWaitsForAThread() async {
        let lines = ["starting", "serving on http://127.0.0.1:4242"] + (0..<10_000).map { "trace: line \($0) of a busy server" }
        // Both threads of a two-core machine's concurrency pool held for a moment, as a loaded
        // machine holds them: the awaiting task cannot run while the lines pour in.
        let blockers = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
            Task.detached { usleep(200_000) }
        }
        let port = await firstCapture(in: Self.pipe(writing: lines), of: /serving on http:\/\/127\.0\.0\.1:([0-9]+)/)
        for blocker in blockers { await blocker.value }
        #expect(port == "4242")
    }

    @Test func everyLineReachesEachAndAnEndWithoutTheLineIsNil() async {
        let seen = Counter()
        let lines = (0..<500).map { "line \($0)" }
        let port = await firstCapture(in: Self.pipe(writing: lines), of: /serving on http:\/\/127\.0\.0\.1:([0-9]+)/) { _ in seen.add() }
        #expect(port == nil)
        #expect(seen.value == 500)
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
