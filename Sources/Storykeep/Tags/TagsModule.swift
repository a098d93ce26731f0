import Foundation
import GraphQL

/// Tags in the schema (Schema/tags.graphql): the person's own tags, the tenant's suggestions,
/// and entries' tags. Switched on by `tags` in the tenant file.
public struct TagsModule: StorykeepModule {
    public init() {}

    public var name: String { "tags" }
    public var switchedBy: TenantModule? { .tags }

    public func register(_ resolvers: inout ResolverRegistry) {
        resolvers.query("tags", access: .authenticated) { _, context in
            let tags = try await context.transaction { tx in try await TagStore(tx).tags() }
            return GraphQLValue.list(tags.map(JournalValues.tag))
        }
        resolvers.query("suggestedTags", access: .authenticated) { _, context in
            let own = try await context.transaction { tx in try await TagStore(tx).tags() }
            let taken = Set(own.map { $0.name.lowercased() })
            return GraphQLValue.list(
                context.tenant.file.suggestedTags.filter { !taken.contains($0.lowercased()) }.map(GraphQLValue.string))
        }
        resolvers.mutation("createTag", access: .authenticated) { arguments, context in
            try await context.transaction { tx in
                JournalValues.tag(try await TagStore(tx).createTag(name: arguments["name"]?.stringValue ?? ""))
            }
        }
        resolvers.mutation("renameTag", access: .authenticated) { arguments, context in
            let id = try JournalValues.id(arguments, "id")
            return try await context.transaction { tx in
                JournalValues.tag(try await TagStore(tx).renameTag(id: id, to: arguments["name"]?.stringValue ?? ""))
            }
        }
        resolvers.mutation("deleteTag", access: .authenticated) { arguments, context in
            let id = try JournalValues.id(arguments, "id")
            try await context.transaction { tx in try await TagStore(tx).deleteTag(id: id) }
            return true
        }
    }
}
