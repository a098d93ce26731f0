import GraphQL
import Postgres
public import StorykeepCore
import StorykeepJournals
import StorykeepSharing

/// The agency's figures (Schema/figures.graphql): `agencyFigures(from, to)`, counts of what young
/// people did, for agency admins, with every count under 5 shown as "<5". Counted in PostgreSQL by
/// functions that answer counts alone (Migrations/0040_figures.sql), in the admin's transaction
/// and tenant. Always on; a figure of a module the tenant has off (shares) is null.
public struct FiguresModule: StorykeepModule {
    public init() {}

    public var name: String { "figures" }
    public var switchedBy: TenantModule? { nil }

    public func register(_ module: inout ModuleRegistry) {
        module.query("agencyFigures", access: .roles([.agencyAdmin])) { arguments, context in
            let range = try FigureRange(from: arguments["from"]?.stringValue, to: arguments["to"]?.stringValue)
            let sharing = context.tenant.file.modules.contains(.sharing)
            let zone = context.tenant.file.timeZone
            // Figures may be a moment old: they are read on the standby when there is one.
            return try await context.staleReadTransaction { tx in
                var figures = AgencyFigures(range: range)
                for row in try await tx.query(FigureStatements.entries, range.first, range.last, zone) {
                    let entries = try row.decode(Int.self, at: 2)
                    if let week = try row.decode(PostgresDate?.self, at: 0) {
                        figures.activeByWeek[week] = try row.decode(Int.self, at: 3)
                    } else if let kind = try row.decode(String?.self, at: 1).flatMap(EntryKind.init(rawValue:)) {
                        figures.entriesByKind[kind] = entries
                    }
                }
                if sharing {
                    figures.shares = try await tx.query(FigureStatements.shares, range.first, range.last, zone).first?.decode(Int.self, at: 0)
                }
                if let row = try await tx.query(FigureStatements.safety, range.first, range.last, zone).first {
                    figures.alertsRaised = try row.decode(Int.self, at: 0)
                    figures.alertsAcknowledged = try row.decode(Int.self, at: 1)
                    figures.medianSecondsToAcknowledge = try row.decode(Double?.self, at: 2)
                }
                return figures
            }
        }
    }
}
