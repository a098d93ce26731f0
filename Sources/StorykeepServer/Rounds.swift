import ServiceLifecycle

/// Runs `round` every `interval` while the service that calls it runs: the first one interval
/// after the start, none once graceful shutdown (or cancellation) ends the wait. A round that
/// throws is handed to `failed`, and the next one tries again. What the services that work in
/// rounds share (``BackgroundJobService``, ``TenantCache``).
func runRounds(every interval: Duration, _ round: () async throws -> Void, failed: (any Error) -> Void) async {
    while !Task.isShuttingDownGracefully && !Task.isCancelled {
        do {
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        } catch {
            return
        }
        do {
            try await round()
        } catch {
            failed(error)
        }
    }
}
