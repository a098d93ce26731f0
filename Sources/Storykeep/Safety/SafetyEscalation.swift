public import Foundation
public import Postgres
import StorykeepCore
import StorykeepNotifications

/// The server's escalation of safety alerts to the agency admins: an open alert nobody
/// acknowledged within its tenant's `safety.escalateAfterMinutes`, or whose young person has no
/// social worker (not switched off) to see it, is marked escalated, once, and every admin of
/// the tenant is told.
///
/// It is driven by what the database holds (each alert's `raised_at`, `status` and
/// `escalated_at`), so a restart loses nothing: the next round escalates what is due. It runs as
/// each tenant's operator (``AccountContext/tenantOperator(tenantID:)``), whom the policies of
/// Migrations/0014_safety.sql let see and escalate every alert; two servers running it at once
/// escalate each alert once (the update re-checks `escalated_at` on the row it locks).
public enum SafetyEscalation {
    /// The notification each admin gets; its subject is the alert (`safetyAlert`).
    public static let escalatedKind = "safetyAlertEscalated"

    /// Escalates what is due at `now` in each of `tenants`, one transaction per tenant: how
    /// many alerts it escalated.
    public static func escalate(_ tenants: [Tenant], pool: PostgresPool, now: Date) async throws -> Int {
        var total = 0
        for tenant in tenants {
            total += try await pool.transaction(settings: AccountContext.tenantOperator(tenantID: tenant.id).settings) { tx in
                try await escalate(afterMinutes: tenant.file.safety.escalateAfterMinutes, now: now, on: tx)
            }
        }
        return total
    }

    /// Escalates what is due at `now` in the transaction `tx` of a tenant's operator, with the
    /// tenant's `afterMinutes`: two statements, and one notification statement per alert.
    static func escalate(afterMinutes: Int, now: Date, on tx: some PostgresQueryable) async throws -> Int {
        let escalated = try await tx.query(SafetyStatements.escalate, now, afterMinutes).map {
            (id: try $0.decode(UUID.self, at: 0), name: try $0.decode(String.self, at: 1))
        }
        guard !escalated.isEmpty else { return 0 }
        let admins = try await tx.query(SafetyStatements.admins).map { try $0.decode(UUID.self, at: 0) }
        for alert in escalated {
            try await Notifications.notify(
                admins, kind: escalatedKind, title: "Safety alert from \(alert.name): nobody has acknowledged it yet",
                subject: NotificationSubject(kind: "safetyAlert", id: alert.id), in: tx)
        }
        return escalated.count
    }
}
