import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13, third slice over HTTP: reports, the moderation queue, removal, blocked words,
// suspensions and rate limits.
@Suite("Social over HTTP: moderation")
struct SocialModerationHTTPTests {
    static let queue = """
        query($after: String) { moderationQueue(first: 10, after: $after) {
          edges { node { contentId openReports post { text status } comment { text } reports { reason text } } }
          pageInfo { hasNextPage endCursor } } }
        """
    static let report = "mutation($p: ID!, $r: ReportReason!, $t: String) { reportPost(postId: $p, reason: $r, text: $t) }"
    static let remove = "mutation($id: ID!, $r: String!) { removePost(id: $id, reason: $r) { status removalReason } }"

    /// One agency with the module on, `blockedWords` and tight rate limits.
    static func withModeratedAgency(_ test: @escaping @Sendable (AccountsHarness) async throws -> Void) async throws {
        try await withAccounts(tweak: { _, file in
            file.modules = [.social, .tags]
            file.social.blockedWords = ["badword", "meet me"]
            file.social.rateLimits = SocialRateLimits(postsPerHour: 3, commentsPerHour: 2, friendRequestsPerHour: 1)
        }, test)
    }

    @Test func reportsQueueByCountThenAgeAndRemovalTellsTheAuthorOnly() async throws {
        try await Self.withModeratedAgency { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let cal = try await h.person(.youngPerson, "cal"), ada = try await h.person(.agencyAdmin, "ada")
            for (person, name) in [(sam, "Sky"), (bea, "Bee"), (cal, "Cal")] { try await h.socialProfile(person, name) }
            let once = try await h.post("reported once", as: sam)
            let twice = try await h.post("reported twice", as: sam)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(once), "r": "SPAM"], as: bea)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(twice), "r": "BULLYING", "t": "it is mean"], as: bea)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(twice), "r": "HARASSMENT"], as: cal)
            // Reporting again changes nothing; unknown posts and bad text are refused.
            _ = try await h.data(Self.report, "reportPost", ["p": .string(twice), "r": "HARASSMENT"], as: cal)
            #expect(try await h.graphQL(Self.report, ["p": .string(UUID().uuidString), "r": "SPAM"], token: cal.token).errorCode == "NOT_FOUND")
            let long = try await h.graphQL(Self.report, ["p": .string(once), "r": "SPAM", "t": .string(String(repeating: "t", count: 501))], token: cal.token)
            #expect(long.errorExtensions?["field"] == "text")

            #expect(try await h.graphQL(Self.queue, token: sam.token).errorCode == "FORBIDDEN")
            let queue = try await h.data(Self.queue, "moderationQueue", as: ada).nodes
            #expect(queue.map { $0["post"]?["text"] } == ["reported twice", "reported once"])
            #expect(queue.first?["openReports"] == 2)
            #expect(queue.first?["reports"] == [["reason": "BULLYING", "text": "it is mean"], ["reason": "HARASSMENT", "text": .null]])
            // Pages of one follow the same order.
            let page = try await h.data("{ moderationQueue(first: 1) { pageInfo { endCursor } } }", "moderationQueue", as: ada)
            let rest = try await h.data(Self.queue, "moderationQueue", ["after": page["pageInfo"]!["endCursor"]!], as: ada).nodes
            #expect(rest.map { $0["post"]?["text"] } == ["reported once"])

            let removed = try await h.data(Self.remove, "removePost", ["id": .string(twice), "r": "Unkind to others"], as: ada)
            #expect(removed == ["status": "REMOVED", "removalReason": "Unkind to others"])
            #expect(try await h.timelineTexts(bea) == ["reported once"])
            #expect(try await h.timelineTexts(sam) == ["reported twice", "reported once"])
            let told = try await h.data(SocialHTTP.notifications, "notifications", as: sam).nodes.filter { $0["kind"] == "contentRemoved" }
            #expect(told.count == 1)
            let title = try #require(told.first?["title"]?.stringValue)
            #expect(!title.contains("Bee") && !title.contains("Cal"))
            #expect(try await h.data(Self.queue, "moderationQueue", as: ada).nodes.map { $0["post"]?["text"] } == ["reported once"])
            // Restored: back for everyone.
            _ = try await h.data("mutation($id: ID!) { restorePost(id: $id) { status } }", "restorePost", ["id": .string(twice)], as: ada)
            #expect(try await h.timelineTexts(bea) == ["reported twice", "reported once"])
            // Dismissed: out of the queue, the post as it was.
            let dismiss = "mutation($id: ID!) { dismissReports(contentId: $id) }"
            #expect(try await h.data(dismiss, "dismissReports", ["id": .string(once)], as: ada) == 1)
            #expect(try await h.data(Self.queue, "moderationQueue", as: ada).nodes == [])
            #expect(try await h.graphQL(dismiss, ["id": .string(once)], token: ada.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(Self.remove, ["id": .string(once), "r": "  "], token: ada.token).errorExtensions?["field"] == "reason")
        }
    }

    @Test func blockedWordsHoldAPostOrCommentForReview() async throws {
        try await Self.withModeratedAgency { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let ada = try await h.person(.agencyAdmin, "ada")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            let held = try await h.data(SocialHTTP.createPost, "createPost", ["i": ["text": "a BadWord here", "visibility": "AGENCY"]], as: sam)
            #expect(held["status"] == "PENDING_REVIEW")
            let phrase = try await h.data(SocialHTTP.createPost, "createPost", ["i": ["text": "Meet me at the park", "visibility": "AGENCY"]], as: sam)
            #expect(phrase["status"] == "PENDING_REVIEW")
            // Not a word of its own: published.
            let clean = try await h.post("badwords is not the word", as: sam)
            #expect(try await h.timelineTexts(bea) == ["badwords is not the word"])
            let mine = try await h.data(SocialHTTP.timeline, "timeline", as: sam).nodes.map { $0["status"] }
            #expect(mine == ["PUBLISHED", "PENDING_REVIEW", "PENDING_REVIEW"])
            #expect(try await h.data(Self.queue, "moderationQueue", as: ada).nodes.map { $0["openReports"] } == [0, 0])
            // The moderator publishes one.
            _ = try await h.data("mutation($id: ID!) { restorePost(id: $id) { status } }", "restorePost", ["id": held["id"]!], as: ada)
            #expect(try await h.timelineTexts(bea) == ["badwords is not the word", "a BadWord here"])
            // An edit that adds a blocked word holds the post again; a comment likewise.
            let edit = "mutation($id: ID!, $t: String) { editPost(id: $id, text: $t) { status } }"
            #expect(try await h.data(edit, "editPost", ["id": .string(clean), "t": "now with badword"], as: sam) == ["status": "PENDING_REVIEW"])
            let comment = try await h.data(SocialHTTP.comment, "comment", ["p": held["id"]!, "t": "badword!"], as: bea)
            #expect(comment["status"] == "PENDING_REVIEW")
            #expect(try await h.data(SocialHTTP.comments, "comments", ["p": held["id"]!], as: sam).nodes == [])
        }
    }

    @Test func aSuspendedPersonReadsButNeitherPostsNorComments() async throws {
        try await Self.withModeratedAgency { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let ada = try await h.person(.agencyAdmin, "ada")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            let post = try await h.post("before", as: bea)
            let suspend = "mutation($p: ID!, $u: DateTime!, $r: String!) { suspendPerson(personId: $p, until: $u, reason: $r) }"
            for (variables, code) in [
                (["p": sam.idValue, "u": "2000-01-01T00:00:00Z", "r": "x"] as GraphQLObject, "BAD_USER_INPUT"),
                (["p": sam.idValue, "u": "2100-01-01T00:00:00Z", "r": " "], "BAD_USER_INPUT"),
                (["p": .string(UUID().uuidString), "u": "2100-01-01T00:00:00Z", "r": "x"], "NOT_FOUND"),
            ] {
                #expect(try await h.graphQL(suspend, variables, token: ada.token).errorCode == code, "\(variables)")
            }
            #expect(try await h.graphQL(suspend, ["p": bea.idValue, "u": "2100-01-01T00:00:00Z", "r": "x"], token: sam.token).errorCode == "FORBIDDEN")
            _ = try await h.data(suspend, "suspendPerson", ["p": sam.idValue, "u": "2100-01-01T00:00:00Z", "r": "Cooling off"], as: ada)

            let posting = try await h.graphQL(SocialHTTP.createPost, ["i": ["text": "hi"]], token: sam.token)
            #expect(posting.errorCode == "FORBIDDEN")
            #expect(posting.errorExtensions?["suspendedUntil"]?.stringValue?.hasPrefix("2100-01-01") == true)
            #expect(try await h.graphQL(SocialHTTP.comment, ["p": .string(post), "t": "hi"], token: sam.token).errorCode == "FORBIDDEN")
            #expect(try await h.timelineTexts(sam) == ["before"])
            #expect(try await h.data("{ mySuspension { reason } }", "mySuspension", as: sam) == ["reason": "Cooling off"])
            #expect(try await h.notified(sam, kind: "socialSuspended") == 1)
            // The private journal is untouched.
            _ = try await h.createEntry(["date": "2026-11-20", "kind": "TEXT", "text": "still mine", "mood": "Okay"], token: sam.token)
        }
    }

    @Test func rateLimitsAreCountedPerPersonInTheDatabase() async throws {
        try await Self.withModeratedAgency { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let cal = try await h.person(.youngPerson, "cal")
            for (person, name) in [(sam, "Sky"), (bea, "Bee"), (cal, "Cal")] { try await h.socialProfile(person, name) }
            for n in 1...3 { _ = try await h.post("post \(n)", as: sam) }
            let fourth = try await h.graphQL(SocialHTTP.createPost, ["i": ["text": "one too many"]], token: sam.token)
            #expect(fourth.errorCode == "RATE_LIMITED")
            let retry = try #require(fourth.errorExtensions?["retryAfterSeconds"]?.intValue)
            #expect((1...3600).contains(retry))
            #expect(try await h.timelineTexts(sam).count == 3)
            // Another person's limit is their own.
            _ = try await h.post("bea's", as: bea)
            let post: GraphQLValue = .string(try await h.post("for comments", as: bea))
            for _ in 1...2 { _ = try await h.data(SocialHTTP.comment, "comment", ["p": post, "t": "ok"], as: cal) }
            #expect(try await h.graphQL(SocialHTTP.comment, ["p": post, "t": "ok"], token: cal.token).errorCode == "RATE_LIMITED")
            _ = try await h.data(SocialHTTP.request, "sendFriendRequest", ["p": bea.idValue], as: cal)
            #expect(try await h.graphQL(SocialHTTP.request, ["p": sam.idValue], token: cal.token).errorCode == "RATE_LIMITED")
            #expect(try await h.data(SocialHTTP.requests, "friendRequests", as: sam) == [])
        }
    }
}

extension AccountsHarness {
    /// How many of `person`'s notifications are of `kind`.
    func notified(_ person: TestPerson, kind: String) async throws -> Int {
        try await data(SocialHTTP.notifications, "notifications", as: person).nodes.filter { $0["kind"]?.stringValue == kind }.count
    }
}
