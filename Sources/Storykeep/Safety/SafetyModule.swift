import Foundation
import GraphQL
import Postgres
public import StorykeepCore
import StorykeepCaseload
import StorykeepNotifications

/// The safety alert in the schema (Schema/safety.graphql): a young person raises one
/// (`raiseSafetyAlert`) and sees where theirs stand (`mySafetyAlerts`); their social workers,
/// and the agency admins once it is escalated (``SafetyEscalation``, a background job every
/// `safety.escalationIntervalSeconds`), list, acknowledge and resolve them; anyone reads the
/// agency's helplines (`safety`). Always on.
///
/// Raising never fails for its message: the module admits NULs in it (which the composition
/// refuses in every other argument) and takes them out, and cuts what is too long
/// (``SafetyAlerts/cleanMessage(_:)``). It runs in a transaction of its own
/// (`ownTransactions`), so that another field of the same request failing does not undo it.
/// Notifications, never with the message: ``raisedKind`` to each social worker,
/// ``acknowledgedKind`` to the young person, ``SafetyEscalation/escalatedKind`` to each admin.
public struct SafetyModule: StorykeepModule {
    public init() {}

    public var name: String { "safety" }
    public var switchedBy: TenantModule? { nil }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<SafetyPolicy>.self] }

    /// The notification each of the young person's social workers gets; its subject is the alert.
    public static let raisedKind = "safetyAlertRaised"
    /// The notification the young person gets when someone acknowledges their alert.
    public static let acknowledgedKind = "safetyAlertAcknowledged"

    public func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob] {
        [Self.escalationJob(interval: config.safety.escalationInterval)]
    }

    /// Escalates, every `interval`, the alerts due in every tenant (``SafetyEscalation``).
    public static func escalationJob(interval: Duration) -> BackgroundJob {
        BackgroundJob(name: "safety escalation", interval: interval) { job in
            let tenants = try await job.tenants()
            let escalated = try await SafetyEscalation.escalate(tenants, pool: job.pool, now: job.now())
            guard escalated > 0 else { return nil }
            return ["alerts": "\(escalated)", "tenants": "\(tenants.count)"]
        }
    }

    public func register(_ module: inout ModuleRegistry) {
        let staff = FieldAccess.roles([.socialWorker, .agencyAdmin])

        module.query("safety", access: .anyone) { _, context in
            let language = try await context.language()
            return ["helplines": context.tenant.file.safety.helplines.map { $0.value(in: language) }] as [String: any Sendable]
        }
        module.query("mySafetyAlerts", access: .roles([.youngPerson])) { arguments, context in
            try await context.transaction { tx in try await SafetyAlerts(tx).own(first: arguments["first"]?.intValue ?? 50) }
        }
        module.query("safetyAlerts", access: staff) { arguments, context in
            let status = arguments["status"]?.stringValue.flatMap(SafetyAlertStatus.init(rawValue:))
            return try await context.transaction { tx in
                try await SafetyAlerts(tx).alerts(status: status, first: arguments["first"]?.intValue ?? 50)
            }
        }

        module.mutation("raiseSafetyAlert", access: .roles([.youngPerson]), ownTransactions: true) { arguments, context in
            let youngPersonID = try context.requireViewer().personID
            return try await context.transaction { tx in
                let alert = try await SafetyAlerts(tx).raise(message: arguments["message"]?.stringValue)
                let workers = try await Caseload(tx).currentAdults(of: youngPersonID).filter { $0.relationship == .socialWorker }
                try await Notifications.notify(
                    workers.map(\.adult.id), kind: Self.raisedKind, title: "\(alert.youngPerson.displayName) has raised a safety alert",
                    subject: NotificationSubject(kind: "safetyAlert", id: alert.id), in: tx)
                return alert
            }
        }
        module.admitNUL(inArgument: "message", of: "Mutation.raiseSafetyAlert")
        // Every staff subscriber of the tenant reads the alert again: its policies say who sees it.
        module.subscription("safetyAlertChanged", access: staff) { event, context in
            try await context.transaction { tx in try await SafetyAlerts(tx).alert(id: event.id) }
        }

        module.mutation("acknowledgeSafetyAlert", access: staff) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let alert = try await SafetyAlerts(tx).acknowledge(id: id, note: arguments["note"]?.stringValue)
                try await Self.tellAcknowledged(alert, in: tx)
                return alert
            }
        }
        module.mutation("resolveSafetyAlert", access: staff) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let (alert, acknowledged) = try await SafetyAlerts(tx).resolve(id: id, note: arguments["note"]?.stringValue)
                if acknowledged { try await Self.tellAcknowledged(alert, in: tx) }
                return alert
            }
        }
    }

    /// Tells the young person of `alert` that someone has seen it: not who, nor what they noted.
    private static func tellAcknowledged(_ alert: SafetyAlert, in tx: PostgresTransaction) async throws {
        try await Notifications.notify(
            [alert.youngPerson.id], kind: acknowledgedKind, title: "Someone has seen your safety alert and is on it",
            subject: NotificationSubject(kind: "safetyAlert", id: alert.id), in: tx)
    }
}
