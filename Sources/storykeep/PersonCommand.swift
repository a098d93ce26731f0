import ArgumentParser
import Foundation
import Postgres
import Storykeep
import Synchronization

/// `storykeep person export`: a person's data export (the right of access) from the command line,
/// for a subject access request the agency answers itself.
struct PersonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "person",
        abstract: "Act on one person of a tenant.",
        subcommands: [Export.self]
    )

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a ZIP of everything Storykeep holds about a person (a subject access request).",
            discussion: """
                The same ZIP as requestMyData and exportPersonData: a JSON file for each kind of thing, the \
                person's media files and a README.txt, read as the person would read their own data. \
                Acts as the tenant's operator and records privacy.exported in the audit trail. The file \
                is written readable by its owner only. Progress goes to standard error.
                """)

        @Option(help: "The tenant's slug.")
        var tenant: String

        @Option(help: "The person: their id, or their username or email.")
        var person: String

        @Option(help: "Where to write the ZIP; default <username or id>-storykeep-data.zip in the current folder.")
        var output: String?

        func run() async throws {
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            let bar = ExportProgressBar(interactive: isatty(2) == 1)
            let (path, size) = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                guard let found = try await TenantStore(pool: pool).all().first(where: { $0.slug == tenant }) else {
                    throw CommandError("no tenant has the slug \(tenant): see `storykeep tenant list`")
                }
                let operatorSettings = AccountContext.tenantOperator(tenantID: found.id).settings
                let subject = try await pool.transaction(settings: operatorSettings) { tx in
                    let rows = try await tx.query(Self.findPerson, UUID(uuidString: person), person)
                    guard let row = rows.first else { throw CommandError("no person \(person) in \(tenant)") }
                    let subject = (
                        id: try row.decode(UUID.self, at: 0), role: PersonRole(rawValue: try row.decode(String.self, at: 1)) ?? .youngPerson,
                        name: try row.decode(String?.self, at: 2))
                    try await AuditTrail.record(.privacyExported, by: .nobody, person: subject.id, request: nil, in: tx)
                    return subject
                }
                let archive = PersonDataArchive(modules: { StorykeepModules.all })
                let zip = try await archive.build(tenant: found, personID: subject.id, role: subject.role, pool: pool, now: Date()) {
                    bar.show($0)
                }
                bar.show(100)
                let path = output ?? "\(subject.name ?? subject.id.uuidString.lowercased())-storykeep-data.zip"
                guard FileManager.default.createFile(atPath: path, contents: Data(zip), attributes: [.posixPermissions: 0o600]) else {
                    throw CommandError("could not write \(path)")
                }
                return (path, zip.count)
            }
            bar.finish()
            print("wrote \(path) (\(size) bytes)")
        }

        /// The person whose id is $1, or whose username or email is $2 (any case).
        static let findPerson = """
            select id, role::text, coalesce(username, email) from people
            where tenant_id = current_tenant_id() and (id = $1 or username_key = lower($2) or email_key = lower($2))
            """
    }
}

/// The export's progress bar on standard error: rewritten in place on a terminal, otherwise a
/// line at each step of a quarter.
final class ExportProgressBar: Sendable {
    private let interactive: Bool
    private let shown = Mutex(-1)

    init(interactive: Bool) {
        self.interactive = interactive
    }

    func show(_ percent: Int) {
        let previous = shown.withLock { value in
            defer { value = max(value, percent) }
            return value
        }
        guard percent > previous, interactive || percent / 25 > previous / 25 || previous < 0 else { return }
        let width = 24, filled = percent * width / 100
        let line = "export: [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(percent)%"
        FileHandle.standardError.write(Data((interactive ? "\r\u{1B}[2K" + line : line + "\n").utf8))
    }

    func finish() {
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
