import Foundation
import Postgres
public import StorykeepCore
import StorykeepJournals

/// The rewards of `storykeep seed`: each young person's journal of the last days (up to their last
/// entry) earns by the tenant's rules, entry by entry in the order written, through ``Earning``
/// as requests do: a check-in (a MOOD entry) as the day's check-in, any other entry as a new one,
/// each on the day it was written in the tenant's time zone. Stars, achievements and their
/// notifications follow; nothing is shared in a seed, so nothing pays for sharing.
extension RewardsModule {
    public var seedSettings: [String: String] {
        ["days": "days of each young person's journal, up to their last entry, that earn stars (default 14; 0-3650)"]
    }

    public func seed(_ tenant: ModuleSeedTenant) async throws -> [String: Int] {
        let days = try tenant.setting("days", in: 0...3650, module: name, default: 14)
        let zone = TimeZone(identifier: tenant.file.timeZone) ?? .gmt
        var stars = 0, achievements = 0
        for person in tenant.people(.youngPerson) where days > 0 {
            let context = AccountContext.person(tenantID: tenant.id, personID: person.id, role: .youngPerson)
            let earned = try await tenant.pool.transaction(settings: context.settings) { tx in
                var earned = RewardsEarned()
                for row in try await tx.query(RewardStatements.seedJournal, days) {
                    guard let kind = EntryKind(rawValue: try row.decode(String.self, at: 1)) else { continue }
                    let written = try row.decode(Date.self, at: 3)
                    let earning = Earning(
                        rewards: tenant.file.rewards, personID: person.id, today: PostgresDate(written, in: zone), tx: tx)
                    earned = earned.adding(
                        kind == .mood
                            ? try await earning.checkedIn(day: try row.decode(PostgresDate.self, at: 2))
                            : try await earning.entryCreated(try row.decode(UUID.self, at: 0), kind: kind))
                }
                return earned
            }
            stars += earned.stars
            achievements += earned.achievements.count
        }
        return ["stars": stars, "achievements": achievements]
    }
}
