/// One step of the response path being completed: a field (its response key) or a list index.
/// It holds its field plan unretained, so that the executor's pushes and pops for every field
/// and list item cost no reference counting. The plans outlive every entry: an entry lives
/// while its execution runs, and `ExecutionContext.run` keeps the operation plan alive.
///
/// graphql-js's path (`[PathComponent]`) is built from the entries only when an error, a
/// resolver's `ResolveInfo` or a type resolver needs it.
///
/// (An `Unmanaged` reference, not an `unowned(unsafe)` one: arrays of entries with an optional
/// `unowned(unsafe)` field lost their elements when copied on write, Swift 6.3.)
struct PathEntry {
    let field: Unmanaged<FieldPlan>?
    let index: Int

    init(field: FieldPlan) {
        self.field = Unmanaged.passUnretained(field)
        self.index = 0
    }

    init(index: Int) {
        self.field = nil
        self.index = index
    }

    var component: PathComponent {
        if let field { .key(field.takeUnretainedValue().responseKey) } else { .index(index) }
    }
}

extension Array where Element == PathEntry {
    /// The path as a response shows it.
    var components: [PathComponent] { map(\.component) }
}
