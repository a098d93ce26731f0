import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 11, the caseload: agency admins assign adults to young people and end assignments; each
// side sees the other's name and avatar and nothing more; every bad input is refused, naming the
// argument, changing nothing. Over HTTP with a real PostgreSQL.

@Suite("Caseload over HTTP")
struct CaseloadHTTPTests {
    @Test func anAdminAssignsAndEachSideSeesTheOther() async throws {
        try await withAccounts { h in
            let (admin, sam, alex, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.alex), h.cast(.wendy))
            let (carl, ivy, dora) = try await (h.cast(.carl), h.cast(.ivy), h.cast(.dora))
            let profile = "mutation($i: ProfileInput!) { updateProfile(input: $i) { displayName } }"
            _ = try await h.data(profile, "updateProfile", ["i": .object(["displayName": .string("Sammy"), "avatar": .string("🦊")])], as: sam)
            _ = try await h.data(profile, "updateProfile", ["i": .object(["displayName": .string("Wen")])], as: wendy)

            let assignment = try await h.assign(sam, wendy, .socialWorker, admin: admin)
            #expect(assignment["relationship"] == .string("SOCIAL_WORKER"))
            #expect(assignment["current"] == .bool(true))
            #expect(assignment["until"] == .null)
            #expect(assignment["endedBy"] == .null)
            #expect(assignment["assignedBy"]?["id"] == admin.idValue)
            // The admin reads names from the agency's records, not the people's own choices.
            #expect(assignment["youngPerson"] == .object(["id": sam.idValue, "role": .string("YOUNG_PERSON"), "displayName": .string("Sam"), "avatar": .null]))
            #expect(assignment["adult"] == .object(["id": wendy.idValue, "role": .string("SOCIAL_WORKER"), "displayName": .string("Wendy Walker"), "avatar": .null]))
            try await h.assign(sam, carl, .carer, admin: admin)
            try await h.assign(alex, ivy, .otherProfessional, admin: admin)

            // Sam's team: social workers first, by the names Sam may see (Wendy's own choice).
            let team = try await h.data(CaseloadHTTP.myTeam, "myTeam", as: sam).listValue ?? []
            #expect(team.map { $0["id"] } == [wendy.idValue, carl.idValue])
            #expect(team.map { $0["displayName"] } == values("Wen", "Carl Carter"))
            #expect(team.map { $0["role"] } == values("SOCIAL_WORKER", "CARER"))
            #expect(team.map { $0["relationship"] } == values("SOCIAL_WORKER", "CARER"))
            #expect(team.first?["since"] == assignment["since"])
            let alexTeam = try await h.data(CaseloadHTTP.myTeam, "myTeam", as: alex).listValue ?? []
            #expect(alexTeam.map { $0["displayName"] } == values("Ivy Irwin"))
            #expect(alexTeam.map { $0["relationship"] } == values("OTHER_PROFESSIONAL"))

            // The adults' young people, by the names the young people chose.
            let sammy = GraphQLValue.object(["id": sam.idValue, "role": .string("YOUNG_PERSON"), "displayName": .string("Sammy"), "avatar": .string("🦊")])
            let wendys = try await h.data(CaseloadHTTP.myYoungPeople, "myYoungPeople", as: wendy).listValue ?? []
            #expect(wendys.map { $0["youngPerson"] } == [sammy])
            #expect(wendys.map { $0["relationship"] } == values("SOCIAL_WORKER"))
            #expect(wendys.first?["since"] == assignment["since"])
            let carls = try await h.data(CaseloadHTTP.myYoungPeople, "myYoungPeople", as: carl).listValue ?? []
            #expect(carls.map { $0["youngPerson"] } == [sammy])
            let ivys = try await h.data(CaseloadHTTP.myYoungPeople, "myYoungPeople", as: ivy).listValue ?? []
            #expect(ivys.map { $0["youngPerson"]?["displayName"] } == values("Alex"))
            #expect(try await h.data(CaseloadHTTP.myYoungPeople, "myYoungPeople", as: dora) == .list([]))
        }
    }

    @Test func neitherSideReadsTheOthersEmailUsernameOrCaseReference() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            // Privacy by shape: the types one side reads of the other have no such fields.
            for type in ["CaseloadPerson", "CaseloadYoungPerson", "TeamMember"] {
                let fields = try await h.data("query($t: String!) { __type(name: $t) { fields { name } } }", "__type", ["t": .string(type)], as: sam)
                let names = Set(fields["fields"]?.listValue?.compactMap { $0["name"]?.stringValue } ?? [])
                #expect(!names.isEmpty && names.isDisjoint(with: ["email", "username", "externalRef"]), "\(type): \(names)")
            }
            let asking = try await h.graphQL("{ myTeam { email } }", token: sam.token)
            #expect(asking.errorCode == "GRAPHQL_VALIDATION_FAILED")
            // Nor any other field: `people` is for admins, a profile is its person's own.
            #expect(try await h.graphQL("{ people { edges { node { email } } } }", token: sam.token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL("{ people { edges { node { username } } } }", token: wendy.token).errorCode == "FORBIDDEN")
            let answers = [
                try await h.graphQL(CaseloadHTTP.myTeam, token: sam.token).json,
                try await h.graphQL(CaseloadHTTP.myYoungPeople, token: wendy.token).json,
            ].joined()
            #expect(!answers.contains("@"), "no email: \(answers)")
            #expect(!answers.contains("sam-"), "no username: \(answers)")
        }
    }

    @Test func assigningTellsTheYoungPerson() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy, carl, ivy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy), h.cast(.carl), h.cast(.ivy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(sam, carl, .carer, admin: admin)
            try await h.assign(sam, ivy, .otherProfessional, admin: admin)
            let page = try await h.data(
                "{ notifications { edges { node { kind title actorId subjectKind subjectId read readAt } } } }", "notifications", as: sam)
            #expect(page.nodes.map { $0["title"] } == values(
                "Ivy Irwin is now one of the professionals looking after you", "Carl Carter is now your carer",
                "Wendy Walker is now your social worker"))
            #expect(page.nodes.allSatisfy { $0["kind"] == .string("assignmentStarted") && $0["actorId"] == admin.idValue })
            #expect(page.nodes.map { $0["subjectKind"] } == values("person", "person", "person"))
            #expect(page.nodes.map { $0["subjectId"] } == [ivy.idValue, carl.idValue, wendy.idValue])
            #expect(page.nodes.allSatisfy { $0["read"] == .bool(false) && $0["readAt"] == .null })
            #expect(try await h.data("{ unreadNotificationCount }", "unreadNotificationCount", as: sam) == .int(3))
            // The adults and the admin are not told anything.
            for person in [wendy, carl, admin] {
                #expect(try await h.data("{ unreadNotificationCount }", "unreadNotificationCount", as: person) == .int(0))
            }
        }
    }

    @Test func endingKeepsTheHistoryAndEndsWhatEachSideSees() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            let first = try await h.assign(sam, wendy, .socialWorker, admin: admin)
            let ended = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": first["id"]!], as: admin)
            #expect(ended["id"] == first["id"])
            #expect(ended["current"] == .bool(false))
            #expect(ended["until"]?.stringValue != nil)
            #expect(ended["endedBy"]?["id"] == admin.idValue)
            #expect(ended["since"] == first["since"])
            #expect(try await h.data(CaseloadHTTP.myTeam, "myTeam", as: sam) == .list([]))
            #expect(try await h.data(CaseloadHTTP.myYoungPeople, "myYoungPeople", as: wendy) == .list([]))

            // Ending it again is refused and changes nothing.
            let again = try await h.graphQL(CaseloadHTTP.endAssignment, ["id": first["id"]!], token: admin.token)
            #expect(again.errorCode == "BAD_USER_INPUT")
            #expect(again.errorExtensions?["field"] == .string("assignmentId"))
            #expect(again["data"] == .null)

            // Assigned again: a new assignment; the history keeps both, newest first.
            let second = try await h.assign(sam, wendy, .otherProfessional, admin: admin)
            #expect(second["id"] != first["id"])
            let history = try await h.data(CaseloadHTTP.assignments, "assignments", ["y": sam.idValue], as: admin).listValue ?? []
            #expect(history.map { $0["id"] } == [second["id"], first["id"]])
            #expect(history.last == ended)
            #expect(history.map { $0["current"] } == [.bool(true), .bool(false)])
            #expect((try await h.data(CaseloadHTTP.myTeam, "myTeam", as: sam).listValue ?? []).map { $0["relationship"] } == values("OTHER_PROFESSIONAL"))
        }
    }

    @Test func badInputIsRefusedNamingTheArgumentAndChangesNothing() async throws {
        try await withAccounts(tenants: 2) { h in
            let (admin, sam, alex, wendy, carl) = try await (h.cast(.ada), h.cast(.sam), h.cast(.alex), h.cast(.wendy), h.cast(.carl))
            let (dan, zoe, foreignAdmin) = try await (h.cast(.dan), h.cast(.zoe), h.cast(.fay, tenant: h.tenants[1]))
            let (foreignYoung, foreignWorker) = try await (h.cast(.olly, tenant: h.tenants[1]), h.cast(.will, tenant: h.tenants[1]))
            let foreignAssignment = try await h.assign(foreignYoung, foreignWorker, .socialWorker, admin: foreignAdmin, tenant: h.tenants[1])
            for person in [dan, zoe] {
                let off = try await h.graphQL("mutation($p: ID!) { disablePerson(personId: $p) { disabled } }", ["p": person.idValue], token: admin.token)
                #expect(off["data"]?["disablePerson"]?["disabled"] == .bool(true), "\(off.json)")
            }
            let kept = try await h.assign(sam, wendy, .socialWorker, admin: admin)

            let unknown = GraphQLValue.string(UUID().uuidString.lowercased())
            let refused: [(what: String, young: GraphQLValue, adult: GraphQLValue, relationship: String, field: String)] = [
                ("a young person id that is no id", .string("nope"), wendy.idValue, "SOCIAL_WORKER", "youngPersonId"),
                ("a young person nobody is", unknown, wendy.idValue, "SOCIAL_WORKER", "youngPersonId"),
                ("another agency's young person", foreignYoung.idValue, wendy.idValue, "SOCIAL_WORKER", "youngPersonId"),
                ("an adult as the young person", carl.idValue, wendy.idValue, "SOCIAL_WORKER", "youngPersonId"),
                ("a switched-off young person", zoe.idValue, wendy.idValue, "SOCIAL_WORKER", "youngPersonId"),
                ("an adult id that is no id", sam.idValue, .string(""), "SOCIAL_WORKER", "adultId"),
                ("an adult nobody is", sam.idValue, unknown, "SOCIAL_WORKER", "adultId"),
                ("another agency's worker", sam.idValue, foreignWorker.idValue, "SOCIAL_WORKER", "adultId"),
                ("a young person to a young person", sam.idValue, alex.idValue, "CARER", "adultId"),
                ("a young person to themselves", sam.idValue, sam.idValue, "SOCIAL_WORKER", "adultId"),
                ("an admin", sam.idValue, admin.idValue, "SOCIAL_WORKER", "adultId"),
                ("a carer as social worker", sam.idValue, carl.idValue, "SOCIAL_WORKER", "relationship"),
                ("a carer as other professional", sam.idValue, carl.idValue, "OTHER_PROFESSIONAL", "relationship"),
                ("a social worker as carer", alex.idValue, wendy.idValue, "CARER", "relationship"),
                ("a switched-off adult", sam.idValue, dan.idValue, "SOCIAL_WORKER", "adultId"),
                ("a duplicate current assignment", sam.idValue, wendy.idValue, "SOCIAL_WORKER", "adultId"),
                ("a duplicate under another relationship", sam.idValue, wendy.idValue, "OTHER_PROFESSIONAL", "adultId"),
            ]
            for (what, young, adult, relationship, field) in refused {
                let response = try await h.assignAdult(young, adult, relationship, admin: admin)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(what): \(response.json)")
                #expect(response.errorExtensions?["field"] == .string(field), "\(what): \(response.json)")
                #expect(response["data"] == .null, "\(what)")
            }
            let badEnum = try await h.assignAdult(sam.idValue, carl.idValue, "FRIEND", admin: admin)
            #expect(badEnum.errorCode == "BAD_USER_INPUT", "\(badEnum.json)")

            for id in [GraphQLValue.string("nope"), unknown, foreignAssignment["id"]!] {
                let end = try await h.graphQL(CaseloadHTTP.endAssignment, ["id": id], token: admin.token)
                #expect(end.errorCode == "NOT_FOUND", "\(id): \(end.json)")
            }
            for id in [GraphQLValue.string("nope"), unknown, foreignYoung.idValue] {
                let history = try await h.graphQL(CaseloadHTTP.assignments, ["y": id], token: admin.token)
                #expect(history.errorCode == "NOT_FOUND", "\(id): \(history.json)")
            }
            let adultsHistory = try await h.graphQL(CaseloadHTTP.assignments, ["y": wendy.idValue], token: admin.token)
            #expect(adultsHistory.errorExtensions?["field"] == .string("youngPersonId"), "\(adultsHistory.json)")

            // Nothing but the one good assignment was made, and only it was told.
            for young in [sam, alex] {
                let history = try await h.data(CaseloadHTTP.assignments, "assignments", ["y": young.idValue], as: admin).listValue ?? []
                #expect(history == (young.id == sam.id ? [kept] : []))
            }
            #expect(try await h.data("{ unreadNotificationCount }", "unreadNotificationCount", as: sam) == .int(1))
            #expect(try await h.data("{ unreadNotificationCount }", "unreadNotificationCount", as: alex) == .int(0))
            let foreignHistory = try await h.graphQL(CaseloadHTTP.assignments, ["y": foreignYoung.idValue], token: foreignAdmin.token, tenant: h.tenants[1])
            #expect(foreignHistory["data"]?["assignments"]?.listValue?.count == 1, "\(foreignHistory.json)")
            #expect(foreignHistory["data"]?["assignments"]?.listValue?.first?["current"] == .bool(true))
        }
    }

    @Test func eachFieldIsForItsRole() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy, carl) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy), h.cast(.carl))
            let assignment = try await h.assign(sam, wendy, .socialWorker, admin: admin)
            let adminOnly: [(String, GraphQLObject)] = [
                (CaseloadHTTP.assignAdult, ["y": sam.idValue, "a": carl.idValue, "r": .string("CARER")]),
                (CaseloadHTTP.endAssignment, ["id": assignment["id"]!]),
                (CaseloadHTTP.assignments, ["y": sam.idValue]),
            ]
            for (query, variables) in adminOnly {
                for person in [sam, wendy, carl] {
                    #expect(try await h.graphQL(query, variables, token: person.token).errorCode == "FORBIDDEN", "\(query)")
                }
                #expect(try await h.graphQL(query, variables).errorCode == "UNAUTHENTICATED", "\(query)")
            }
            for person in [sam, admin] {
                #expect(try await h.graphQL(CaseloadHTTP.myYoungPeople, token: person.token).errorCode == "FORBIDDEN")
            }
            for person in [wendy, carl, admin] {
                #expect(try await h.graphQL(CaseloadHTTP.myTeam, token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(CaseloadHTTP.myYoungPeople).errorCode == "UNAUTHENTICATED")
            #expect(try await h.graphQL(CaseloadHTTP.myTeam).errorCode == "UNAUTHENTICATED")
            // Nothing of it was changed by the refused calls.
            let history = try await h.data(CaseloadHTTP.assignments, "assignments", ["y": sam.idValue], as: admin)
            #expect(history == .list([assignment]))
        }
    }
}

/// `strings` as GraphQL strings, to compare with fields read from a list of objects.
private func values(_ strings: String...) -> [GraphQLValue?] {
    strings.map { .string($0) }
}
