import Foundation
import GraphQL
import Postgres
public import StorykeepCore

/// The GDPR rights of access and erasure in the schema (Schema/privacy.graphql): a person's data
/// export (`requestMyData`, and `exportPersonData` for an agency admin's subject access
/// request), built in the background (``DataExportBuilder``) and downloaded once through a signed
/// link (``DataExportDownloads``); and erasure (`erasePerson`, `deleteMyAccount`, ``Erasure``).
/// Always on. What goes into an export comes from every module (``StorykeepModule/personData(_:)``).
public struct PrivacyModule: StorykeepModule {
    /// What builds the ZIPs, from the modules it is given.
    public var archive: PersonDataArchive

    /// `modules`: the composition's modules, asked when an export is built (a closure, so that
    /// the composition's list can hold this module too).
    public init(modules: @escaping @Sendable () -> [any StorykeepModule]) {
        archive = PersonDataArchive(modules: modules)
    }

    public var name: String { "privacy" }
    public var switchedBy: TenantModule? { nil }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<PrivacyPolicy>.self] }
    public var endpoints: [ModuleEndpoint] {
        [.signedFiles(path: DataExportDownloads.path, source: DataExportDownloads(), links: DataExportDownloads())]
    }

    public func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob] {
        [Self.exportJob(archive: archive, interval: .seconds(2))]
    }

    /// Builds the data exports waiting, every `interval`, in the tenants that have any (asked in
    /// one statement: ``JobContext/tenants(withWork:due:stale:)``), and expires old ones.
    public static func exportJob(archive: PersonDataArchive, interval: Duration) -> BackgroundJob {
        BackgroundJob(name: DueWork.dataExports.rawValue, interval: interval) { job in
            let now = job.now()
            let tenants = try await job.tenants(withWork: .dataExports, due: now, stale: now - DataExportBuilder.staleClaim)
            guard !tenants.isEmpty else { return nil }
            let builder = DataExportBuilder(archive: archive, pool: job.pool, now: job.now)
            let done = try await builder.round(tenants, logger: job.logger)
            return ["built": "\(done.built)", "failed": "\(done.failed)", "expired": "\(done.expired)"]
        }
    }

    public func register(_ module: inout ModuleRegistry) {
        module.mutation("requestMyData", access: .authenticated) { _, context in
            try await Self.request(try context.requireViewer().personID, context: context)
        }
        module.mutation("exportPersonData", access: .roles([.agencyAdmin])) { arguments, context in
            let personID = try arguments.id("personId")
            let known = try await context.transaction { tx in try await tx.query(Erasure.person, personID).first != nil }
            guard known else { throw GraphQLError.notFound("No such person in your agency.") }
            return try await Self.request(personID, context: context)
        }
        module.query("dataExport", access: .authenticated) { arguments, context in
            let id = try arguments.id("id")
            let export = try await context.transaction { tx in try await tx.query(DataExportStatements.find, id).first.map(DataExport.init(row:)) }
            return export.map { Self.view($0, context: context) }
        }
        module.mutation("erasePerson", access: .roles([.agencyAdmin])) { arguments, context in
            let personID = try arguments.id("personId")
            let viewer = try context.requireViewer()
            guard personID != viewer.personID else {
                throw GraphQLError.badUserInput(field: "personId", "personId: to erase your own account, use deleteMyAccount.")
            }
            return try await context.transaction { tx in
                try await Erasure.erase(
                    personID, confirm: arguments["confirm"]?.stringValue ?? "", byAdmin: true, in: tx, now: context.services.now())
            }
        }
        module.mutation("deleteMyAccount", access: .authenticated) { arguments, context in
            let viewer = try context.requireViewer()
            guard context.tenant.file.privacy.selfErasure else {
                throw GraphQLError.forbidden("Your agency does not let you delete your own account here. Please ask your social worker.")
            }
            return try await context.transaction { tx in
                try await Erasure.erase(
                    viewer.personID, confirm: arguments["confirm"]?.stringValue ?? "", byAdmin: false, in: tx, now: context.services.now())
            }
        }
    }

    /// A new export of `personID`'s data, asked by the request's person, and its audit event.
    private static func request(_ personID: UUID, context: ResolverContext) async throws -> DataExportView {
        try await context.transaction { tx in
            let export = try DataExport(row: try await tx.query(DataExportStatements.request, personID)[0])
            try await context.audit(.privacyExported, person: personID, subject: export.id, in: tx)
            return view(export, context: context)
        }
    }

    private static func view(_ export: DataExport, context: ResolverContext) -> DataExportView {
        let link = export.status == .ready
            ? export.expiresAt.map { DataExportDownloads.url(export: export.id, tenant: context.tenant, expires: $0, links: context.links) }
            : nil
        return DataExportView(export: export, downloadURL: link)
    }
}
