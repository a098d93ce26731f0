import CLibPQ
import Foundation

/// A COMMIT that nothing waits for: a read-only request's answer does not depend on it, so the
/// connection goes back to the pool at once while its thread sends the COMMIT
/// (`PostgresConnection.commitWithoutWaiting`); the server commits as soon as it reads it, and
/// its answer is read first thing when the connection is used next (it has long arrived by then).
/// The request saves the round trip of its COMMIT, and the hop to the connection's thread.
extension ConnectionCore {
    /// Sends COMMIT without waiting for its answer, if the transaction wrote nothing (no statement
    /// reported INSERT, UPDATE, DELETE, MERGE or COPY) and no statement failed in it; returns
    /// whether it did. Otherwise the caller commits as usual, and learns how that went.
    func commitWithoutWaiting() throws -> Bool {
        guard mayCommitWithoutWaiting, let connection else { return false }
        guard PQenterPipelineMode(connection) == 1 else { throw PostgresError(kind: .connectionLost, message: "cannot send COMMIT") }
        commitInFlight = true
        guard PQsendQueryParams(connection, "COMMIT", 0, nil, nil, nil, nil, 0) == 1, PQpipelineSync(connection) == 1 else {
            throw PostgresError(kind: .connectionLost, message: String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines)
        }
        return true
    }

    /// Whether the connection is in a transaction in which no statement wrote or failed.
    var mayCommitWithoutWaiting: Bool {
        guard let connection, !commitInFlight, !wroteInTransaction else { return false }
        return PQtransactionStatus(connection) == PQTRANS_INTRANS
    }

    /// Reads the answer to a COMMIT sent without waiting. One that failed (it cannot, for a
    /// transaction that wrote nothing, short of the server going away) is logged: the request it
    /// ended was answered already.
    func settleCommit(_ connection: OpaquePointer) throws {
        commitInFlight = false
        var failure: String?
        readUntilSync(connection) { result in
            if PQresultStatus(result) != PGRES_COMMAND_OK {
                failure = String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines
            } else if String(cString: PQcmdStatus(result)) != "COMMIT" {
                failure = "the transaction was rolled back"
            }
            PQclear(result)
        }
        if let failure { logger.warning("postgres COMMIT sent without waiting failed: \(failure)") }
        guard PQstatus(connection) == CONNECTION_OK, PQexitPipelineMode(connection) == 1 else {
            let message = String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines
            close()
            throw PostgresError(kind: .connectionLost, message: message)
        }
    }

    /// Whether a command tag (`PQcmdStatus`) is a write's.
    static func isWrite(_ tag: UnsafeMutablePointer<CChar>?) -> Bool {
        guard let tag else { return false }
        for prefix in ["INSERT", "UPDATE", "DELETE", "MERGE", "COPY"] where strncmp(tag, prefix, prefix.utf8.count) == 0 {
            return true
        }
        return false
    }
}
