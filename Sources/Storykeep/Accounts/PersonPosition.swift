public import StorykeepCore

/// The people of a tenant in the order of `people`: (created_at, id), both ascending.
public enum PeopleList: MomentOrderedList {
    public static var name: String { "people" }
}

/// A place in `people`, what its cursors hold: `created_at` exactly, and the id.
public typealias PersonPosition = MomentPosition<PeopleList>
