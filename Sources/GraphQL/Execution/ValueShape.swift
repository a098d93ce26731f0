/// What the executor must know of a resolver's value before completing it, told by the value's
/// dynamic type: a JSON value, a `Deferred`, a JSON object, a dictionary, a
/// `GraphQLFieldReadable`, or none of these.
///
/// Each execution keeps the shape of every type it met (``ExecutionContext/shape(of:)``), so a
/// type pays the run-time casts once per request instead of at every field. A cast that fails
/// (a `String` tried as a `GraphQLValue`, an entry tried as a `GraphQLObject`) searches the
/// runtime's conformance tables each time: with three such casts per field it was a fifth of a
/// cached journal page's CPU.
enum ValueShape: Sendable {
    case json, deferred, object, dictionary, readable, other
    /// A type whose values answer casts differently one from another (an `Optional`, an
    /// `AnyHashable`, a dictionary of another element type, a class that may bridge): each of
    /// its values is cast as it comes, as if there were no cache.
    case byValue

    init(of type: any Any.Type) {
        if type == GraphQLValue.self {
            self = .json
        } else if type == Deferred.self {
            self = .deferred
        } else if type == GraphQLObject.self {
            self = .object
        } else if type == [String: any Sendable].self {
            self = .dictionary
        } else if type is any OptionalValue.Type || type is any DictionaryValue.Type || type == AnyHashable.self {
            self = .byValue
        } else if type is any GraphQLFieldReadable.Type {
            self = .readable
        } else if type is AnyObject.Type {
            self = .byValue
        } else {
            self = .other
        }
    }
}

/// Every `Dictionary` type: a value of one may cast to `[String: any Sendable]`, whatever its
/// own element type.
protocol DictionaryValue {}

extension Dictionary: DictionaryValue {}

extension ExecutionContext {
    /// The shape of `value`'s dynamic type, found once per execution.
    @inline(__always)
    func shape(of value: any Sendable) -> ValueShape {
        let key = ObjectIdentifier(type(of: value))
        if let known = valueShapes[key] { return known }
        let shape = ValueShape(of: type(of: value))
        valueShapes[key] = shape
        return shape
    }
}
