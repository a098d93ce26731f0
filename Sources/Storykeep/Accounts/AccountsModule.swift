import Foundation
import GraphQL
public import StorykeepCore

/// Accounts in the schema (Schema/accounts.graphql): people, login, sessions, password resets.
/// Always on.
public struct AccountsModule: StorykeepModule {
    public init() {}

    public var name: String { "accounts" }
    public var switchedBy: TenantModule? { nil }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<LockoutPolicy>.self, TenantSection<PasswordPolicy>.self] }

    public func register(_ module: inout ModuleRegistry) {
        let admins = FieldAccess.roles([.agencyAdmin])
        PeopleActivity.register(&module)

        module.query("me", access: .anyone) { _, context in
            guard context.viewer != nil || context.presentedInvalidToken else { return nil }
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in
                try await PersonRecord.find(viewer.personID, in: tx)?.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
        module.ownPersonField("Person.passwordResets") { arguments, context, viewer in
            let first = arguments["first"]?.intValue ?? 5
            guard (1...20).contains(first) else {
                throw GraphQLError.badUserInput(field: "first", "Ask for 1 to 20 password resets at a time.")
            }
            return try await context.transaction { tx in
                try await PasswordResetNotice.latest(personID: viewer.personID, first: first, in: tx).map(\.graphQLValue)
            }
        }
        module.query("people", access: admins) { arguments, context in
            try await context.transaction { tx in
                try await PeopleAdmin.page(
                    role: arguments["role"]?.stringValue, first: arguments["first"]?.intValue ?? 20,
                    after: arguments["after"]?.stringValue, cursors: Cursors(tenant: context.tenant),
                    termsVersion: context.tenant.file.termsVersion, in: tx)
            }
        }

        // Failures of both count against the client's address (`rateLimits.failedLoginsPerMinute`).
        module.mutation("login", access: .anyone, ownTransactions: true) { arguments, context in
            try await RequestLimits.countingFailedLogins {
                try await Login.login(
                    username: arguments["username"]?.stringValue ?? "", password: arguments["password"]?.stringValue ?? "",
                    context: context)
            }
        }
        module.mutation("activateAccount", access: .anyone, ownTransactions: true) { arguments, context in
            try await RequestLimits.countingFailedLogins {
                try await Login.activate(
                    code: arguments["code"]?.stringValue ?? "", username: arguments["username"]?.stringValue,
                    password: arguments["password"]?.stringValue ?? "", context: context)
            }
        }
        module.mutation("changePassword", access: .authenticated, ownTransactions: true) { arguments, context in
            try await Login.changePassword(
                current: arguments["currentPassword"]?.stringValue ?? "", new: arguments["newPassword"]?.stringValue ?? "",
                context: context)
        }
        module.mutation("logout", access: .authenticated) { _, context in
            let viewer = try context.requireViewer()
            try await context.transaction { tx in try await Sessions.revoke(sessionID: viewer.sessionID, in: tx) }
            return true
        }
        module.mutation("logoutEverywhere", access: .authenticated) { _, context in
            let viewer = try context.requireViewer()
            _ = try await context.transaction { tx in try await Sessions.revoke(personID: viewer.personID, in: tx) }
            return true
        }
        module.mutation("acceptTerms", access: .authenticated) { arguments, context in
            let viewer = try context.requireViewer()
            let current = context.tenant.file.termsVersion
            guard arguments["version"]?.stringValue == current else {
                throw GraphQLError.badUserInput(field: "version", "The current terms are version \(current): please read and accept those.")
            }
            return try await context.transaction { tx in
                try await tx.execute(PeopleStatements.acceptTerms, viewer.personID, current)
                return try await PersonRecord.find(viewer.personID, in: tx)?.graphQLValue(termsVersion: current)
            }
        }

        module.mutation("createPerson", access: admins) { arguments, context in
            let person = try NewPerson(input: arguments["input"]?.objectValue ?? [:])
            return try await context.transaction { tx in
                let issued = try await PeopleAdmin.createForAdmin(person, in: tx)
                try await context.publish(PersonCreated(personID: issued.person.id, role: issued.person.role), in: tx)
                return issued.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
        module.mutation("issueActivationCode", access: admins) { arguments, context in
            try await context.transaction { tx in
                let issued = try await PeopleAdmin.reissueCode(personID: arguments["personId"]?.stringValue ?? "", in: tx)
                try await context.audit(.activationCodeIssued, person: issued.person.id, in: tx)
                return issued.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
        registerPasswordResets(&module)
        module.mutation("disablePerson", access: admins) { arguments, context in
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in
                let disabled = try await PeopleAdmin.disable(personID: arguments["personId"]?.stringValue ?? "", viewer: viewer, in: tx)
                try await context.audit(.personDisabled, person: disabled.id, in: tx)
                return disabled.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
    }

    /// Four eyes (``PasswordResets``): admins ask; those who may decide approve or refuse.
    private func registerPasswordResets(_ module: inout ModuleRegistry) {
        let deciders = FieldAccess.roles(PasswordResets.deciders)
        module.query("passwordResetRequests", access: deciders) { arguments, context in
            try await context.transaction { tx in
                try await PasswordResets.list(
                    personID: arguments["personId"]?.stringValue, state: arguments["state"]?.stringValue,
                    first: arguments["first"]?.intValue ?? 20, in: tx
                ).map { $0.graphQLValue(termsVersion: context.tenant.file.termsVersion) }
            }
        }
        module.mutation("requestPasswordReset", access: .roles([.agencyAdmin])) { arguments, context in
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in
                let requested = try await PasswordResets.request(
                    personID: arguments["personId"]?.stringValue ?? "", reason: arguments["reason"]?.stringValue ?? "",
                    viewer: viewer, in: tx)
                try await context.audit(.passwordResetRequested, person: requested.person.id, subject: requested.id, in: tx)
                return requested.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
        module.mutation("approvePasswordReset", access: deciders) { arguments, context in
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in
                let issued = try await PasswordResets.approve(requestID: arguments["requestId"]?.stringValue ?? "", viewer: viewer, in: tx)
                try await context.audit(.passwordResetApproved, person: issued.person.id, subject: issued.passwordReset?.id, in: tx)
                return issued.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
        module.mutation("refusePasswordReset", access: deciders) { arguments, context in
            try await context.transaction { tx in
                let refused = try await PasswordResets.refuse(
                    requestID: arguments["requestId"]?.stringValue ?? "", note: arguments["note"]?.stringValue, in: tx)
                try await context.audit(.passwordResetRefused, person: refused.person.id, subject: refused.id, in: tx)
                return refused.graphQLValue(termsVersion: context.tenant.file.termsVersion)
            }
        }
    }
}

/// An agency admin added a person to the agency.
public struct PersonCreated: DomainEvent {
    public static let name = "personCreated"
    public var personID: UUID
    public var role: PersonRole
}

/// A person logged in with their password: a new session began.
public struct LoggedIn: DomainEvent {
    public static let name = "loggedIn"
    public var personID: UUID
}

/// A login was refused for its password (or a switched-off account): published in a transaction
/// of its own, in the LOGIN context of the name typed. `personID` is nil for a name nobody has.
public struct LoginFailed: DomainEvent {
    public static let name = "loginFailed"
    public var personID: UUID?
}
