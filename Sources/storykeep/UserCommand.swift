import ArgumentParser
import Foundation
import GraphQL
import Storykeep

/// `storykeep user create`: a tenant's first admin (or anyone) from the command line.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage a tenant's people from the command line.",
        subcommands: [Create.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a person to a tenant and print their one-time activation code.",
            discussion: """
                Acts as the tenant's operator, with an agency admin's rights, through the same \
                checks as the createPerson mutation. The person sets their password with the code \
                (activateAccount) within \(PeopleAdmin.activationCodeLifetimeDays) days. The code is \
                shown only now: it is stored hashed.
                """
        )

        @Option(help: "The tenant's slug.")
        var tenant: String

        @Option(help: "YOUNG_PERSON, CARER, SOCIAL_WORKER or AGENCY_ADMIN.")
        var role: String

        @Option(help: "How an adult logs in (required for every role but YOUNG_PERSON).")
        var email: String?

        @Option(help: "How a young person logs in.")
        var username: String?

        @Option(help: "The name people see (default: the email's local part, or the username).")
        var displayName: String?

        @Option(help: "Their case number in the agency's case management system.")
        var externalRef: String?

        @Flag(help: "Print one JSON object, {\"personId\": ..., \"activationCode\": ...}.")
        var json = false

        func validate() throws {
            guard PersonRole(rawValue: role) != nil else {
                throw ValidationError("--role must be one of \(PersonRole.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
        }

        func run() async throws {
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            let person = NewPerson(
                role: PersonRole(rawValue: role)!,
                displayName: displayName ?? email.map { String($0.prefix { $0 != "@" }) } ?? username ?? "",
                username: username, email: email, externalRef: externalRef)
            let issued = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                guard let found = try await TenantStore(pool: pool).all().first(where: { $0.slug == tenant }) else {
                    throw CommandError("no tenant has the slug \(tenant): see `storykeep tenant list`")
                }
                do {
                    return try await pool.transaction(settings: AccountContext.tenantOperator(tenantID: found.id).settings) { tx in
                        try await PeopleAdmin.create(person, in: tx)
                    }
                } catch let error as GraphQLError {
                    let field = error.extensions?["field"]?.stringValue.map { "--" + Self.option($0) + ": " } ?? ""
                    throw CommandError(field + error.message)
                }
            }
            if json {
                let object: GraphQLValue = .object([
                    "personId": .string(issued.person.id.uuidString.lowercased()),
                    "activationCode": .string(issued.code.displayText),
                ])
                print(object.json)
                return
            }
            let login = issued.person.username ?? issued.person.email ?? ""
            print("""
                Created \(issued.person.role.rawValue) \(issued.person.displayName) (\(login)) in \(tenant), id \(issued.person.id.uuidString.lowercased()).
                Activation code: \(issued.code.displayText)  (shown only now; valid until \(DateTimeScalar.string(issued.expiresAt)))
                They set their password with it: activateAccount(code, password) at /t/\(tenant)/graphql.
                """)
        }

        /// The option of an input field: `input.displayName` → `display-name`.
        static func option(_ field: String) -> String {
            let name = field.hasPrefix("input.") ? String(field.dropFirst(6)) : field
            return name.reduce(into: "") { out, character in
                if character.isUppercase { out += "-" + character.lowercased() } else { out.append(character) }
            }
        }
    }
}

/// A command's failure, printed as is.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
