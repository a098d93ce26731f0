import CLibPQ
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A notification sent with `NOTIFY channel, 'payload'` (or `pg_notify`) by a transaction that
/// committed.
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    /// The server process that sent it.
    public var senderPID: Int32

    public init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

/// What a ``PostgresListener`` reports.
public enum PostgresListenerEvent: Sendable, Equatable {
    /// The listener's connection is listening on its channels. `reconnected` is true after a lost
    /// connection was replaced: notifications sent in between were missed.
    case listening(reconnected: Bool)
    case notification(PostgresNotification)
}

/// `LISTEN` on a dedicated connection of its own, with libpq's notification API: its thread waits
/// on the connection's socket (`poll`, no busy loop), reads what arrived (`PQconsumeInput`) and
/// hands each notification (`PQnotifies`) to the handler, in the order they were sent. A lost
/// connection is replaced (after `retryDelay`, again and again while it fails); the handler is
/// told when listening starts again, since what was sent in between is lost.
///
/// PostgreSQL delivers a notification when the transaction that sent it commits, never when it
/// rolls back, and to every listening connection: each server process has one listener.
public final class PostgresListener: Sendable {
    public let channels: [String]
    private let configuration: PostgresConfiguration
    private let retryDelay: Duration
    private let logger: Logger

    /// `channels` are identifiers of lowercase letters, digits and `_`.
    public init(configuration: PostgresConfiguration, channels: [String], retryDelay: Duration = .seconds(1), logger: Logger) {
        precondition(
            channels.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } },
            "a channel is a lowercase identifier")
        self.configuration = configuration
        self.channels = channels
        self.retryDelay = retryDelay
        self.logger = logger
    }

    /// Listens until the task is cancelled, giving `handle` every event on the listener's thread:
    /// it must return quickly (hand the work on) and not block.
    public func run(_ handle: @escaping @Sendable (PostgresListenerEvent) -> Void) async {
        var connectedBefore = false
        while !Task.isCancelled {
            do {
                try await listenOnce(reconnected: connectedBefore, handle, onListening: { connectedBefore = true })
                return  // stopped by cancellation
            } catch {
                logger.warning("postgres listener lost its connection", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: retryDelay)
        }
    }

    /// One connection's life: connect, LISTEN, then wait for notifications until the task is
    /// cancelled (returns) or the connection fails (throws).
    private func listenOnce(
        reconnected: Bool, _ handle: @escaping @Sendable (PostgresListenerEvent) -> Void, onListening: () -> Void
    ) async throws {
        let worker = BoundedWorkerPool(threadCount: 1, name: "postgres-listener")
        defer { worker.stop() }
        let wakeUp = try WakeUpPipe()
        let channels = self.channels
        let (connectionString, cacheSize, logger) = (configuration.connectionString, configuration.statementCacheSize, logger)
        let core = try await worker.run {
            let core = try ConnectionCore.connect(connectionString, statementCacheSize: cacheSize, logger: logger)
            do {
                for channel in channels { _ = try core.executeScript("LISTEN \(channel)") }
            } catch {
                core.close()
                throw error
            }
            return ListeningCore(core)
        }
        onListening()
        handle(.listening(reconnected: reconnected))
        try await withTaskCancellationHandler {
            try await worker.run {
                defer { core.core.close() }
                try core.waitForNotifications(until: wakeUp, handle)
            }
        } onCancel: {
            wakeUp.signal()
        }
    }
}

/// The listener's connection, used only on its thread.
private final class ListeningCore: @unchecked Sendable {
    let core: ConnectionCore

    init(_ core: ConnectionCore) { self.core = core }

    /// Waits on the socket and the wake-up pipe; hands on what arrives until the pipe is
    /// signalled (returns) or the connection fails (throws).
    func waitForNotifications(until wakeUp: WakeUpPipe, _ handle: (PostgresListenerEvent) -> Void) throws {
        guard let connection = core.connection else { throw PostgresError(kind: .connectionLost, message: "connection is closed") }
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw lost(connection) }
        while true {
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw PostgresError(kind: .connectionLost, message: "poll failed: errno \(errno)")
            }
            if fds[1].revents != 0 { return }
            guard PQconsumeInput(connection) == 1 else { throw lost(connection) }
            while let notify = PQnotifies(connection) {
                let event = notify.pointee
                handle(.notification(PostgresNotification(
                    channel: String(cString: event.relname), payload: String(cString: event.extra), senderPID: event.be_pid)))
                PQfreemem(notify)
            }
            guard PQstatus(connection) == CONNECTION_OK else { throw lost(connection) }
        }
    }

    private func lost(_ connection: OpaquePointer) -> PostgresError {
        PostgresError(kind: .connectionLost, message: String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines)
    }
}

/// A pipe whose write end wakes the listener's `poll` up from another thread.
private final class WakeUpPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw PostgresError(kind: .connectionFailed, message: "pipe failed: errno \(errno)") }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
