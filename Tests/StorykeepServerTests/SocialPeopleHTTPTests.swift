import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13, first slice over HTTP: social profiles, finding people, friend requests, blocks, and
// who takes part (`social.participants`).
@Suite("Social over HTTP: profiles, friends and blocks")
struct SocialPeopleHTTPTests {
    @Test func aProfileIsItsPersonsChoiceAndOnlyTheDiscoverableAreFound() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam", displayName: "Samuel Legalname")
            let bea = try await h.person(.youngPerson, "bea")
            // Nobody is anywhere until they make a profile.
            #expect(try await h.data("{ mySocialProfile { personId } }", "mySocialProfile", as: sam) == .null)
            #expect(try await h.found("sam", as: bea) == [])
            let made = try await h.socialProfile(sam, "Sky Walker", bio: "  I like drawing  ")
            #expect(made["displayName"] == "Sky Walker")
            #expect(made["bio"] == "I like drawing")
            #expect(made["discoverable"] == true)
            #expect(made["staff"] == false)
            #expect(made["friendship"] == "YOU")
            try await h.socialProfile(bea, "Bee", discoverable: false)
            // By a word of the chosen name, any case; never by the legal name, username or email.
            #expect(try await h.found("sky", as: bea) == ["Sky Walker"])
            #expect(try await h.found("WALK", as: bea) == ["Sky Walker"])
            for query in ["samuel", "legalname", sam.loginName, "alk"] {
                #expect(try await h.found(query, as: bea) == [], "\(query)")
            }
            // Bea did not opt in: nobody finds her, though her profile is readable by id.
            #expect(try await h.found("bee", as: sam) == [])
            let other = try await h.data(SocialHTTP.profile, "socialProfile", ["p": bea.idValue], as: sam)
            #expect(other["displayName"] == "Bee")
            #expect(other["discoverable"] == .null)
        }
    }

    @Test func badProfilesAreRefusedAndChangeNothing() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam")
            try await h.socialProfile(sam, "Sky")
            for (input, field) in [
                (["displayName": GraphQLValue.string(String(repeating: "n", count: 61))], "input.displayName"),
                (["displayName": .string("   ")], "input.displayName"),
                (["displayName": .string("Sky"), "bio": .string(String(repeating: "b", count: 301))], "input.bio"),
                (["displayName": .string("Sky"), "interests": .list((0...10).map { .string("i\($0)") })], "input.interests"),
                (["displayName": .string("Sky"), "interests": .list([.string(String(repeating: "i", count: 41))])], "input.interests"),
            ] as [(GraphQLObject, String)] {
                let response = try await h.graphQL(SocialHTTP.saveProfile, ["i": .object(input)], token: sam.token)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(field)")
                #expect(response.errorExtensions?["field"]?.stringValue == field)
            }
            let kept = try await h.data("{ mySocialProfile { displayName bio } }", "mySocialProfile", as: sam)
            #expect(kept == ["displayName": "Sky", "bio": .null])
            let exact = try await h.data(
                SocialHTTP.saveProfile, "updateSocialProfile",
                ["i": ["displayName": .string(String(repeating: "é", count: 60)), "bio": .string(String(repeating: "b", count: 300))]], as: sam)
            #expect(exact["bio"]?.stringValue?.count == 300)
        }
    }

    @Test func aFriendRequestIsAnsweredAndBothAreTold() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let cal = try await h.person(.youngPerson, "cal")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee", bio: "secret bio", private: true)
            try await h.socialProfile(cal, "Cal")
            // A private profile: the bio only for friends.
            #expect(try await h.data(SocialHTTP.profile, "socialProfile", ["p": bea.idValue], as: sam)["bio"] == .null)

            let asked = try await h.data(SocialHTTP.request, "sendFriendRequest", ["p": bea.idValue], as: sam)
            #expect(asked["friendship"] == "REQUEST_SENT")
            // Asking again changes nothing.
            _ = try await h.data(SocialHTTP.request, "sendFriendRequest", ["p": bea.idValue], as: sam)
            let incoming = try await h.data(SocialHTTP.requests, "friendRequests", as: bea).listValue ?? []
            #expect(incoming.count == 1)
            #expect(incoming.first?["incoming"] == true)
            #expect(incoming.first?["person"]?["displayName"] == "Sky")
            #expect(try await h.notified(bea, about: sam) == ["friendRequest"])
            #expect(try await h.data(SocialHTTP.requests, "friendRequests", as: sam).listValue?.first?["incoming"] == false)

            let id = try #require(incoming.first?.id)
            // Only the person asked answers.
            #expect(try await h.graphQL(SocialHTTP.respond, ["id": .string(id), "a": true], token: cal.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(SocialHTTP.respond, ["id": .string(id), "a": true], token: sam.token).errorCode == "NOT_FOUND")
            let answered = try await h.data(SocialHTTP.respond, "respondToFriendRequest", ["id": .string(id), "a": true], as: bea)
            #expect(answered == ["personId": sam.idValue, "friendship": "FRIENDS"])
            #expect(try await h.notified(sam, about: bea) == ["friendAccepted"])
            #expect(try await h.data(SocialHTTP.friends, "friends", as: sam) == [["personId": bea.idValue, "displayName": "Bee", "bio": "secret bio"]])
            #expect(try await h.data(SocialHTTP.friends, "friends", as: bea).listValue?.count == 1)
            #expect(try await h.graphQL(SocialHTTP.request, ["p": bea.idValue], token: sam.token).errorExtensions?["field"] == "personId")

            _ = try await h.data(SocialHTTP.removeFriend, "removeFriend", ["p": sam.idValue], as: bea)
            #expect(try await h.data(SocialHTTP.friends, "friends", as: sam) == [])
            #expect(try await h.graphQL(SocialHTTP.removeFriend, ["p": sam.idValue], token: bea.token).errorCode == "NOT_FOUND")

            // Declining deletes the request; they may ask again.
            _ = try await h.data(SocialHTTP.request, "sendFriendRequest", ["p": cal.idValue], as: sam)
            let toCal = try #require(try await h.data(SocialHTTP.requests, "friendRequests", as: cal).listValue?.first?.id)
            let declined = try await h.data(SocialHTTP.respond, "respondToFriendRequest", ["id": .string(toCal), "a": false], as: cal)
            #expect(declined["friendship"] == "NONE")
            #expect(try await h.data(SocialHTTP.requests, "friendRequests", as: sam) == [])
            #expect(try await h.notified(sam, about: cal) == [])
        }
    }

    @Test func friendRequestsRefuseWhatCannotBe() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let noProfile = try await h.person(.youngPerson, "nora")
            let olly = try await h.person(.youngPerson, "olly", tenant: h.tenants[1])
            // Asking before making one's profile.
            try await h.socialProfile(bea, "Bee")
            #expect(try await h.graphQL(SocialHTTP.request, ["p": bea.idValue], token: sam.token).errorCode == "FORBIDDEN")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(olly, "Olly", tenant: h.tenants[1])
            let refused: [(GraphQLValue, String)] = [
                (sam.idValue, "BAD_USER_INPUT"),  // oneself
                (noProfile.idValue, "NOT_FOUND"),  // no profile: not there
                (olly.idValue, "NOT_FOUND"),  // another agency's
                (.string(UUID().uuidString), "NOT_FOUND"),
                ("not-an-id", "NOT_FOUND"),
            ]
            for (id, code) in refused {
                #expect(try await h.graphQL(SocialHTTP.request, ["p": id], token: sam.token).errorCode == code, "\(id)")
            }
            #expect(try await h.data(SocialHTTP.requests, "friendRequests", as: sam) == [])
        }
    }

    @Test func aBlockHidesTwoPeopleFromEachOtherBothWays() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            try await h.befriend(sam, bea)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": sam.idValue], as: bea)
            // Blocking ends the friendship; nobody is told.
            for (me, them, name) in [(sam, bea, "bee"), (bea, sam, "sky")] {
                #expect(try await h.data(SocialHTTP.friends, "friends", as: me) == [])
                #expect(try await h.data(SocialHTTP.profile, "socialProfile", ["p": them.idValue], as: me) == .null)
                #expect(try await h.found(name, as: me) == [])
                #expect(try await h.graphQL(SocialHTTP.request, ["p": them.idValue], token: me.token).errorCode == "NOT_FOUND")
            }
            // Sam may block back (no NOT_FOUND to tell him he was blocked).
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": bea.idValue], as: sam)
            let blocked = try await h.data("{ blockedPeople { personId } }", "blockedPeople", as: bea)
            #expect(blocked == [["personId": sam.idValue]])
            // Unblocking one side leaves the other's block standing.
            _ = try await h.data(SocialHTTP.unblock, "unblockPerson", ["p": sam.idValue], as: bea)
            #expect(try await h.found("sky", as: bea) == [])
            _ = try await h.data(SocialHTTP.unblock, "unblockPerson", ["p": bea.idValue], as: sam)
            #expect(try await h.found("sky", as: bea) == ["Sky"])
            #expect(try await h.data(SocialHTTP.friends, "friends", as: bea) == [])
            #expect(try await h.graphQL(SocialHTTP.unblock, ["p": bea.idValue], token: sam.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(SocialHTTP.block, ["p": sam.idValue], token: sam.token).errorCode == "BAD_USER_INPUT")
        }
    }

    @Test func whoTakesPartIsTheAgencysChoiceAndStaffAreLabelled() async throws {
        try await withSocial { h in
            let wes = try await h.person(.socialWorker, "wes")
            let ada = try await h.person(.agencyAdmin, "ada")
            // First agency: young people only.
            for person in [wes, ada] {
                let response = try await h.graphQL(SocialHTTP.saveProfile, ["i": ["displayName": "Wes"]], token: person.token)
                #expect(response.errorCode == "FORBIDDEN")
                #expect(try await h.graphQL(SocialHTTP.search, ["q": "a"], token: person.token).errorCode == "FORBIDDEN")
            }
            // Second agency: social workers too, labelled staff.
            let will = try await h.person(.socialWorker, "will", tenant: h.tenants[1])
            let made = try await h.graphQL(SocialHTTP.saveProfile, ["i": ["displayName": "Will (staff)"]], token: will.token, tenant: h.tenants[1])
            #expect(made["data"]?["updateSocialProfile"]?["staff"] == true, "\(made)")
        }
    }

    @Test func withoutTheModuleThereIsNoSocialSpace() async throws {
        try await withAccounts { h in
            let sam = try await h.person(.youngPerson, "sam")
            let response = try await h.graphQL(SocialHTTP.saveProfile, ["i": ["displayName": "Sky"]], token: sam.token)
            #expect(response.errorCode == "GRAPHQL_VALIDATION_FAILED")
        }
    }
}

extension AccountsHarness {
    /// Makes `person`'s discoverable profile as `name` in `tenant`.
    func socialProfile(_ person: TestPerson, _ name: String, tenant: TestTenant) async throws {
        let response = try await graphQL(
            SocialHTTP.saveProfile, ["i": ["displayName": .string(name), "discoverable": true]], token: person.token, tenant: tenant)
        #expect(response["errors"] == nil, "\(response)")
    }
}
