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
                checks as the createPerson mutation; it is the only way to add an AGENCY_ADMIN \
                (admins add the other roles, so that no admin can make a second one to approve \
                their own password resets). The person sets their password with the code \
                (activateAccount) within \(PeopleAdmin.activationCodeLifetimeDays) days. The code is \
                shown only now: it is stored hashed. With --password-stdin there is no code: the \
                password read is set at once (make run's demo people are made so).
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

        @Flag(help: ArgumentHelp(
            "Read their password from the first line of standard input and set it now, instead of issuing an activation code.",
            discussion: "The password meets the tenant's policy and is hashed with Argon2id as activateAccount does. For demos and scripted set-ups."))
        var passwordStdin = false

        @Flag(help: "If someone of this role already has the username or email, change nothing (not even the password) and succeed.")
        var ifAbsent = false

        @Flag(help: "Print one JSON object: personId; activationCode when one was issued; created (true or false) with --if-absent.")
        var json = false

        func validate() throws {
            guard PersonRole(rawValue: role) != nil else {
                throw ValidationError("--role must be one of \(PersonRole.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
        }

        /// What became of the person.
        enum Outcome {
            case issued(IssuedActivation)
            case provisioned(PeopleAdmin.Provisioned)
            case alreadyThere(PersonRecord)

            var wasThere: Bool {
                if case .alreadyThere = self { true } else { false }
            }

            var person: PersonRecord {
                switch self {
                case .issued(let issued): issued.person
                case .provisioned(let provisioned): provisioned.person
                case .alreadyThere(let person): person
                }
            }
        }

        func run() async throws {
            var password: String?
            if passwordStdin {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    throw CommandError("--password-stdin: no password on standard input")
                }
                password = line
            }
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            let person = NewPerson(
                role: PersonRole(rawValue: role)!,
                displayName: displayName ?? email.map { String($0.prefix { $0 != "@" }) } ?? username ?? "",
                username: username, email: email, externalRef: externalRef)
            let outcome = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                guard let found = try await TenantStore(pool: pool).all().first(where: { $0.slug == tenant }) else {
                    throw CommandError("no tenant has the slug \(tenant): see `storykeep tenant list`")
                }
                do {
                    if let password {
                        let hasher = try PasswordHasher(config: config.argon2, threadCount: 1)
                        let provisioned = try await PeopleAdmin.provision(
                            person, password: password, tenant: found, hasher: hasher, pool: pool, ifAbsent: ifAbsent)
                        return provisioned.created ? Outcome.provisioned(provisioned) : .alreadyThere(provisioned.person)
                    }
                    return try await pool.transaction(settings: AccountContext.tenantOperator(tenantID: found.id).settings) { tx in
                        if ifAbsent, let there = try await PeopleAdmin.existing(person, in: tx) { return Outcome.alreadyThere(there) }
                        return .issued(try await PeopleAdmin.createAsOperator(person, in: tx))
                    }
                } catch let error as GraphQLError {
                    let field = error.extensions?["field"]?.stringValue.map { "--" + Self.option($0) + ": " } ?? ""
                    throw CommandError(field + error.message)
                }
            }
            let id = outcome.person.id.uuidString.lowercased()
            if json {
                var object: GraphQLObject = ["personId": .string(id)]
                if case .issued(let issued) = outcome { object.append("activationCode", .string(issued.code.displayText)) }
                if ifAbsent { object.append("created", .bool(!outcome.wasThere)) }
                print(GraphQLValue.object(object).json)
                return
            }
            let who = outcome.person
            let described = "\(who.role.rawValue) \(who.displayName) (\(who.username ?? who.email ?? "")) in \(tenant), id \(id)"
            switch outcome {
            case .issued(let issued):
                print("""
                    Created \(described).
                    Activation code: \(issued.code.displayText)  (shown only now; valid until \(DateTimeScalar.string(issued.expiresAt)))
                    They set their password with it: activateAccount(code, password) at /t/\(tenant)/graphql.
                    """)
            case .provisioned:
                print("Created \(described), with the password given: they can log in now at /t/\(tenant)/graphql.")
            case .alreadyThere:
                print("Already there: \(described); nothing changed.")
            }
        }

        /// The option of an input field: `input.displayName` → `display-name`.
        static func option(_ field: String) -> String {
            if field == "password" { return "password-stdin" }
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
