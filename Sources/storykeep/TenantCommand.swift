import ArgumentParser
import Storykeep

/// `storykeep tenant apply|list|disable|enable`.
struct TenantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant",
        abstract: "Provision and list tenants (agencies).",
        subcommands: [Apply.self, List.self, Disable.self, Enable.self]
    )

    struct Apply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or update the tenants of a directory of <slug>.yaml files, in one transaction.",
            discussion: """
                Every file is read and checked first; if any is malformed, nothing is applied and \
                each problem is listed with its file and key. Applying the same files twice \
                changes nothing. A disabled tenant stays disabled.
                """
        )

        @Argument(help: "The directory of tenant files (default: tenants.directory, \"tenants\").")
        var directory: String?

        @Flag(help: "Only read and check the files; do not touch the database.")
        var check = false

        func run() async throws {
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            let files = try TenantFiles.load(directory: directory ?? config.tenants.directory)
            if check {
                for file in files { print("valid     \(file.slug)") }
                return
            }
            let changes = try await CommandSupport.using(try CommandSupport.ownerPool(config, logger: logger)) { pool in
                try await TenantStore(pool: pool).apply(files)
            }
            for change in changes { print(change) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every tenant, enabled or not.")

        func run() async throws {
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            var invalid: [(String, TenantFileError)] = []
            let tenants = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                try await TenantStore(pool: pool).all { invalid.append(($0, $1)) }
            }
            for tenant in tenants {
                let state = tenant.enabled ? "enabled " : "disabled"
                let hosts = tenant.hosts.isEmpty ? "" : "  hosts: \(tenant.hosts.joined(separator: ", "))"
                print("\(tenant.slug)  \(state)  \(tenant.displayName)  \(tenant.id)\(hosts)")
            }
            for (slug, problem) in invalid {
                print("\(slug)  invalid   not served: \(problem)")
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop serving a tenant: its routes answer 404; its data stays. `tenant enable` undoes it."
        )

        @Argument(help: "The tenant's slug.")
        var slug: String

        func run() async throws {
            try await setEnabled(false, slug: slug)
            print("disabled  \(slug)")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Serve a disabled tenant again.")

        @Argument(help: "The tenant's slug.")
        var slug: String

        func run() async throws {
            try await setEnabled(true, slug: slug)
            print("enabled   \(slug)")
        }
    }
}

private func setEnabled(_ enabled: Bool, slug: String) async throws {
    let config = try await CommandSupport.config()
    let logger = CommandSupport.bootstrapLogging(config)
    let found = try await CommandSupport.using(try CommandSupport.ownerPool(config, logger: logger)) { pool in
        try await TenantStore(pool: pool).setEnabled(enabled, slug: slug)
    }
    guard found else { throw ValidationError("no tenant has the slug \"\(slug)\"") }
}
