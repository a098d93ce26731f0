public import Foundation
public import GraphQL
public import StorykeepCore

extension ModuleRegistry {
    /// A field of `Entry` that another module adds (`Entry.tags`): the list `loader` loads for
    /// the entry's id, in the request's batch; an empty list on any other source.
    public mutating func entryListField<Item: Sendable>(_ coordinate: String, _ loader: DataLoader<UUID, [Item]>) {
        field(
            coordinate,
            .sync { source, _, _, info in
                guard let entry = source as? Entry else { return [Item]() }
                return loader.load(entry.id, info)
            })
    }
}
