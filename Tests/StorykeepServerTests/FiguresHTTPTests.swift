import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 17, the agency's figures: `agencyFigures(from, to)` counts what young people did, for
/// agency admins, every count under 5 shown as "<5", each agency its own.
@Suite("The agency's figures")
struct FiguresHTTPTests {
    static let figures = """
        query($f: Date!, $t: Date!) { agencyFigures(from: $f, to: $t) {
          from to weeklyActiveYoungPeople { weekStart youngPeople { text value } } checkIns { text value }
          entriesByKind { kind entries { text value } } shares { text value }
          safetyAlertsRaised { text value } safetyAlertsAcknowledged { text value } medianMinutesToAcknowledge
        } }
        """

    /// Today (UTC) moved by `days`, as `YYYY-MM-DD`: the rows are stamped by the database's clock.
    static func day(_ days: Int) -> String {
        let today = PostgresDate(daysSince2000: Int((Date().timeIntervalSince1970 - 946_684_800) / 86_400))
        return PostgresDate(daysSince2000: today.daysSince2000 + days).description
    }

    /// The figures of the days around today, as `admin` of `tenant`.
    static func around(_ h: AccountsHarness, as admin: TestPerson, tenant: TestTenant) async throws -> GraphQLValue {
        let response = try await h.graphQL(
            figures, ["f": .string(day(-3)), "t": .string(day(3))], token: admin.token, tenant: tenant)
        #expect(response["errors"] == nil, "\(response.json)")
        return try #require(response["data"]?["agencyFigures"], "\(response.json)")
    }

    static func entries(_ figures: GraphQLValue, _ kind: String) -> GraphQLValue? {
        figures["entriesByKind"]?.listValue?.first { $0["kind"]?.stringValue == kind }?["entries"]
    }

    /// The week of today's figure.
    static func thisWeek(_ figures: GraphQLValue) -> GraphQLValue? {
        let today = day(0)
        return figures["weeklyActiveYoungPeople"]?.listValue?.last { ($0["weekStart"]?.stringValue ?? "") <= today }?["youngPeople"]
    }

    static func shown(_ count: Int) -> GraphQLValue {
        count < 5 ? ["text": "<5", "value": .null] : ["text": .string(String(count)), "value": .int(count)]
    }

    @Test func countsOfWhatYoungPeopleDidUnderFiveShownAsLessThanFiveEachAgencyItsOwn() async throws {
        try await withAccounts(tenants: 2, tweak: SharingHTTP.tenant) { h in
            let (one, two) = (h.tenants[0], h.tenants[1])
            let ada = try await h.person(.agencyAdmin, "ada")
            let otto = try await h.person(.agencyAdmin, "otto", tenant: two)
            let wes = try await h.person(.socialWorker, "wes")
            var young: [TestPerson] = []
            for name in ["yan", "yas", "yuri", "yves", "yola"] {
                let person = try await h.person(.youngPerson, name)
                try await h.assign(person, wes, .socialWorker, admin: ada)
                young.append(person)
            }
            // Four young people check in: four is "<5" (this week's active young people too).
            for person in young.prefix(4) {
                _ = try await h.data("mutation { checkIn(mood: \"Okay\") { id } }", "checkIn", as: person)
            }
            var figures = try await Self.around(h, as: ada, tenant: one)
            #expect(figures["checkIns"] == Self.shown(4))
            #expect(Self.thisWeek(figures) == Self.shown(4))
            // The fifth: 5 is shown as it is.
            _ = try await h.data("mutation { checkIn(mood: \"Okay\") { id } }", "checkIn", as: young[4])

            // Four texts by one, a drawing by each of the five; four shares; five alerts, four acknowledged.
            var texts: [GraphQLValue] = []
            for index in 0..<4 { texts.append(try await h.write("Text \(index)", as: young[0])) }
            for person in young {
                _ = try await h.createEntry(["date": .string(Self.day(0)), "kind": "DRAWING"], token: person.token)
            }
            for text in texts { try await h.share(text, with: [wes], as: young[0]) }
            var alerts: [String] = []
            for person in young { alerts.append(try #require(try await h.raiseAlert(as: person)["id"]?.stringValue)) }
            for alert in alerts.prefix(4) {
                _ = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": .string(alert)], as: wes)
            }
            // The other agency's young person writes, checks in, raises an alert: none of it here.
            let zoe = try await h.person(.youngPerson, "zoe", tenant: two)
            _ = try await h.graphQL(
                "mutation($i: EntryInput!) { createEntry(input: $i) { id } }", ["i": ["date": .string(Self.day(0)), "kind": "DRAWING"]],
                token: zoe.token, tenant: two)
            _ = try await h.graphQL("mutation { checkIn(mood: \"Okay\") { id } }", token: zoe.token, tenant: two)
            _ = try await h.graphQL(SafetyHTTP.raise, ["m": "help"], token: zoe.token, tenant: two)

            figures = try await Self.around(h, as: ada, tenant: one)
            #expect(figures["from"]?.stringValue == Self.day(-3))
            #expect(figures["to"]?.stringValue == Self.day(3))
            #expect(figures["checkIns"] == Self.shown(5))
            #expect(Self.thisWeek(figures) == Self.shown(5))
            #expect(Self.entries(figures, "TEXT") == Self.shown(4))
            #expect(Self.entries(figures, "DRAWING") == Self.shown(5))
            #expect(Self.entries(figures, "AUDIO") == Self.shown(0))
            #expect(figures["entriesByKind"]?.listValue?.compactMap { $0["kind"]?.stringValue } == ["TEXT", "AUDIO", "VIDEO", "DRAWING", "IMAGE"])
            #expect(figures["shares"] == Self.shown(4))
            #expect(figures["safetyAlertsRaised"] == Self.shown(5))
            #expect(figures["safetyAlertsAcknowledged"] == Self.shown(4))
            // A median of four alerts could tell how long one waited.
            #expect(figures["medianMinutesToAcknowledge"] == .null)
            let weeks = figures["weeklyActiveYoungPeople"]?.listValue ?? []
            #expect(weeks.count == 2 || weeks.count == 1)
            #expect(weeks.first?["weekStart"]?.stringValue.flatMap(PostgresDate.init).map { ($0.daysSince2000 - 2) % 7 } == 0)

            _ = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": .string(alerts[4])], as: wes)
            figures = try await Self.around(h, as: ada, tenant: one)
            #expect(figures["safetyAlertsAcknowledged"] == Self.shown(5))
            let median = try #require(figures["medianMinutesToAcknowledge"]?.doubleValue)
            #expect(median >= 0 && median < 60)

            // The other agency sees its own: one of each, all "<5"; nothing of the first's.
            let theirs = try await Self.around(h, as: otto, tenant: two)
            #expect(theirs["checkIns"] == Self.shown(1))
            #expect(Self.entries(theirs, "DRAWING") == Self.shown(1))
            #expect(theirs["safetyAlertsRaised"] == Self.shown(1))
            #expect(theirs["shares"] == Self.shown(0))
            // Outside the range, nothing.
            let before = try await h.graphQL(Self.figures, ["f": "2020-01-01", "t": "2020-12-31"], token: ada.token)
            #expect(before["data"]?["agencyFigures"]?["checkIns"] == Self.shown(0))
            #expect(before["data"]?["agencyFigures"]?["weeklyActiveYoungPeople"]?.listValue?.count == 53)
        }
    }

    @Test func forAgencyAdminsOverAYearAtMostAndNoShareFigureWithoutSharing() async throws {
        try await withAccounts(tweak: { _, file in file.modules = [.tags] }) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wes = try await h.person(.socialWorker, "wes")
            for person in [sam, wes] {
                let response = try await h.graphQL(Self.figures, ["f": "2026-01-01", "t": "2026-01-31"], token: person.token)
                #expect(response.errorCode == "FORBIDDEN")
                #expect(response["data"] == .null || response["data"] == nil)
            }
            #expect(try await h.graphQL(Self.figures, ["f": "2026-01-01", "t": "2026-01-31"]).errorCode == "UNAUTHENTICATED")
            for (from, to) in [("2026-02-01", "2026-01-31"), ("2025-01-01", "2026-01-02")] {
                let response = try await h.graphQL(Self.figures, ["f": .string(from), "t": .string(to)], token: ada.token)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(from)..\(to)")
                #expect(response.errorExtensions?["field"]?.stringValue == "to", "\(from)..\(to)")
            }
            let malformed = try await h.graphQL(Self.figures, ["f": "2026-02-30", "t": "2026-03-01"], token: ada.token)
            #expect(malformed["errors"] != nil && malformed["data"] == nil)
            // 366 days, both counted, is the most: a leap year.
            let year = try await h.graphQL(Self.figures, ["f": "2028-01-01", "t": "2028-12-31"], token: ada.token)
            #expect(year["errors"] == nil, "\(year.json)")
            #expect(year["data"]?["agencyFigures"]?["shares"] == .null)
            #expect(year["data"]?["agencyFigures"]?["checkIns"] == Self.shown(0))
        }
    }
}
