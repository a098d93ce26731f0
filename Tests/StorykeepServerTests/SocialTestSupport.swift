import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

/// What the social module's tests over HTTP share: its operations, and people with profiles.
enum SocialHTTP {
    /// Tenants with the social module on; the second also lets social workers take part.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { index, file in
        file.modules = [.social]
        if index == 1 { file.social.participants = [.youngPerson, .socialWorker] }
    }

    static let profileFields = "personId displayName bio interests private discoverable staff friendship"
    static let saveProfile = "mutation($i: SocialProfileInput!) { updateSocialProfile(input: $i) { \(profileFields) } }"
    static let profile = "query($p: ID!) { socialProfile(personId: $p) { \(profileFields) } }"
    static let search = "query($q: String!) { searchPeople(query: $q) { personId displayName } }"
    static let request = "mutation($p: ID!) { sendFriendRequest(personId: $p) { personId friendship } }"
    static let respond = "mutation($id: ID!, $a: Boolean!) { respondToFriendRequest(id: $id, accept: $a) { personId friendship } }"
    static let requests = "{ friendRequests { id incoming person { personId displayName } } }"
    static let friends = "{ friends { personId displayName bio } }"
    static let removeFriend = "mutation($p: ID!) { removeFriend(personId: $p) }"
    static let block = "mutation($p: ID!) { blockPerson(personId: $p) }"
    static let unblock = "mutation($p: ID!) { unblockPerson(personId: $p) }"
    static let postFields = "id author { personId displayName } text link media { id url } groupId visibility status edited reactions { kind count mine } myReaction commentCount"
    static let createPost = "mutation($i: PostInput!) { createPost(input: $i) { \(postFields) } }"
    static let timeline = "query($first: Int, $after: String) { timeline(first: $first, after: $after) { edges { cursor node { \(postFields) } } pageInfo { hasNextPage endCursor } } }"
    static let postsOf = "query($a: ID!) { posts(authorId: $a) { edges { node { id text } } } }"
    static let react = "mutation($p: ID!, $k: ReactionKind) { react(postId: $p, kind: $k) { reactions { kind count mine } myReaction } }"
    static let comment = "mutation($p: ID!, $t: String!) { comment(postId: $p, text: $t) { id postId text status author { displayName } } }"
    static let comments = "query($p: ID!) { comments(postId: $p) { edges { node { id text } } } }"
    static let notifications = "{ notifications(first: 100) { edges { node { kind title subjectKind subjectId } } } }"
}

extension AccountsHarness {
    /// Makes `person`'s social profile as `name`; discoverable unless said otherwise.
    @discardableResult
    func socialProfile(
        _ person: TestPerson, _ name: String, bio: String? = nil, private isPrivate: Bool = false, discoverable: Bool = true
    ) async throws -> GraphQLValue {
        var input: GraphQLObject = ["displayName": .string(name), "private": .bool(isPrivate), "discoverable": .bool(discoverable)]
        if let bio { input["bio"] = .string(bio) }
        return try await data(SocialHTTP.saveProfile, "updateSocialProfile", ["i": .object(input)], as: person)
    }

    /// Makes `a` and `b` friends: `a` asks, `b` accepts.
    func befriend(_ a: TestPerson, _ b: TestPerson) async throws {
        _ = try await data(SocialHTTP.request, "sendFriendRequest", ["p": b.idValue], as: a)
        _ = try await data(SocialHTTP.request, "sendFriendRequest", ["p": a.idValue], as: b)
    }

    /// The display names `person` finds for `query`.
    func found(_ query: String, as person: TestPerson) async throws -> [String] {
        try await data(SocialHTTP.search, "searchPeople", ["q": .string(query)], as: person).listValue?
            .compactMap { $0["displayName"]?.stringValue } ?? []
    }

    /// The kinds of `person`'s notifications about `subject`.
    func notified(_ person: TestPerson, about subject: TestPerson) async throws -> [String] {
        try await data(SocialHTTP.notifications, "notifications", as: person).nodes
            .filter { $0["subjectId"]?.stringValue == subject.id.uuidString.lowercased() }.compactMap { $0["kind"]?.stringValue }
    }
}

extension AccountsHarness {
    /// `person` posts `text` for `visibility` (and more of `input`): the post's id.
    func post(_ text: String, _ visibility: String = "AGENCY", _ input: GraphQLObject = [:], as person: TestPerson) async throws -> String {
        var input = input
        input["text"] = .string(text)
        input["visibility"] = .string(visibility)
        return try #require(try await data(SocialHTTP.createPost, "createPost", ["i": .object(input)], as: person).id)
    }

    /// The texts of the posts on `person`'s timeline, newest first.
    func timelineTexts(_ person: TestPerson) async throws -> [String] {
        try await data(SocialHTTP.timeline, "timeline", ["first": 100], as: person).nodes.compactMap { $0["text"]?.stringValue }
    }
}

/// Runs `test` against the server with two tenants that have the social module on
/// (``SocialHTTP/tenant``).
func withSocial(_ test: @escaping @Sendable (AccountsHarness) async throws -> Void) async throws {
    try await withAccounts(tenants: 2, tweak: SocialHTTP.tenant, test)
}
