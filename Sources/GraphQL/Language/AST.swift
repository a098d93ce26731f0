/// The abstract syntax tree of the GraphQL language, named as in the specification and graphql-js.
///
/// Nodes are values. Every node carries the `Location` of the source text it was parsed from, as
/// byte offsets into the `Source`; `Source.location(of:)` turns an offset into a line and column.
/// A node built by hand (not parsed) has `loc == nil`.

/// Byte offsets of a node in its `Source`: `start` is the first byte, `end` one past the last.
public struct Location: Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

public struct Name: Hashable, Sendable {
    public var value: String
    public var loc: Location?

    public init(_ value: String, loc: Location? = nil) {
        self.value = value
        self.loc = loc
    }
}

// MARK: - Document

public struct Document: Hashable, Sendable {
    public var definitions: [Definition]
    public var loc: Location?

    public init(definitions: [Definition], loc: Location? = nil) {
        self.definitions = definitions
        self.loc = loc
    }
}

public enum Definition: Hashable, Sendable {
    // ExecutableDefinition
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    // TypeSystemDefinition
    case schema(SchemaDefinition)
    case type(TypeDefinition)
    case directive(DirectiveDefinition)
    // TypeSystemExtension
    case schemaExtension(SchemaExtension)
    case typeExtension(TypeExtension)
}

// MARK: - Executable definitions

public enum OperationType: String, Hashable, Sendable {
    case query
    case mutation
    case subscription
}

public struct OperationDefinition: Hashable, Sendable {
    /// A description (September 2025 edition); never on the `{ … }` shorthand.
    public var description: StringValue?
    public var operation: OperationType
    public var name: Name?
    public var variableDefinitions: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var loc: Location?

    public init(
        description: StringValue? = nil, operation: OperationType, name: Name? = nil,
        variableDefinitions: [VariableDefinition] = [], directives: [Directive] = [], selectionSet: SelectionSet,
        loc: Location? = nil
    ) {
        self.description = description
        self.operation = operation
        self.name = name
        self.variableDefinitions = variableDefinitions
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }
}

public struct VariableDefinition: Hashable, Sendable {
    /// A description (September 2025 edition).
    public var description: StringValue?
    public var variable: Variable
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var loc: Location?

    public init(
        description: StringValue? = nil, variable: Variable, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], loc: Location? = nil
    ) {
        self.description = description
        self.variable = variable
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.loc = loc
    }
}

public struct Variable: Hashable, Sendable {
    public var name: Name
    public var loc: Location?

    public init(name: Name, loc: Location? = nil) {
        self.name = name
        self.loc = loc
    }
}

public struct SelectionSet: Hashable, Sendable {
    public var selections: [Selection]
    public var loc: Location?

    public init(selections: [Selection], loc: Location? = nil) {
        self.selections = selections
        self.loc = loc
    }
}

public enum Selection: Hashable, Sendable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)
}

public struct Field: Hashable, Sendable {
    public var alias: Name?
    public var name: Name
    public var arguments: [Argument]
    public var directives: [Directive]
    public var selectionSet: SelectionSet?
    public var loc: Location?

    /// The key of this field in the response: its alias, or else its name.
    public var responseKey: String { alias?.value ?? name.value }

    public init(
        alias: Name? = nil, name: Name, arguments: [Argument] = [], directives: [Directive] = [],
        selectionSet: SelectionSet? = nil, loc: Location? = nil
    ) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }
}

public struct Argument: Hashable, Sendable {
    public var name: Name
    public var value: Value
    public var loc: Location?

    public init(name: Name, value: Value, loc: Location? = nil) {
        self.name = name
        self.value = value
        self.loc = loc
    }
}

public struct FragmentSpread: Hashable, Sendable {
    public var name: Name
    public var directives: [Directive]
    public var loc: Location?

    public init(name: Name, directives: [Directive] = [], loc: Location? = nil) {
        self.name = name
        self.directives = directives
        self.loc = loc
    }
}

public struct InlineFragment: Hashable, Sendable {
    public var typeCondition: NamedType?
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var loc: Location?

    public init(
        typeCondition: NamedType? = nil, directives: [Directive] = [], selectionSet: SelectionSet,
        loc: Location? = nil
    ) {
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }
}

public struct FragmentDefinition: Hashable, Sendable {
    /// A description (September 2025 edition).
    public var description: StringValue?
    public var name: Name
    public var typeCondition: NamedType
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var loc: Location?

    public init(
        description: StringValue? = nil, name: Name, typeCondition: NamedType, directives: [Directive] = [],
        selectionSet: SelectionSet, loc: Location? = nil
    ) {
        self.description = description
        self.name = name
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }
}

// MARK: - Values

public indirect enum Value: Hashable, Sendable {
    case variable(Variable)
    case int(IntValue)
    case float(FloatValue)
    case string(StringValue)
    case boolean(BooleanValue)
    case null(NullValue)
    case `enum`(EnumValue)
    case list(ListValue)
    case object(ObjectValue)
}

/// An integer literal, kept as written; coercion decides whether it fits.
public struct IntValue: Hashable, Sendable {
    public var value: String
    public var loc: Location?
    public init(_ value: String, loc: Location? = nil) { self.value = value; self.loc = loc }
}

/// A float literal, kept as written.
public struct FloatValue: Hashable, Sendable {
    public var value: String
    public var loc: Location?
    public init(_ value: String, loc: Location? = nil) { self.value = value; self.loc = loc }
}

public struct StringValue: Hashable, Sendable {
    /// The string's value, escapes resolved (and, for a block string, indentation removed).
    public var value: String
    /// Whether it was written as a `"""block string"""`.
    public var block: Bool
    public var loc: Location?
    public init(_ value: String, block: Bool = false, loc: Location? = nil) {
        self.value = value; self.block = block; self.loc = loc
    }
}

public struct BooleanValue: Hashable, Sendable {
    public var value: Bool
    public var loc: Location?
    public init(_ value: Bool, loc: Location? = nil) { self.value = value; self.loc = loc }
}

public struct NullValue: Hashable, Sendable {
    public var loc: Location?
    public init(loc: Location? = nil) { self.loc = loc }
}

public struct EnumValue: Hashable, Sendable {
    public var value: String
    public var loc: Location?
    public init(_ value: String, loc: Location? = nil) { self.value = value; self.loc = loc }
}

public struct ListValue: Hashable, Sendable {
    public var values: [Value]
    public var loc: Location?
    public init(_ values: [Value], loc: Location? = nil) { self.values = values; self.loc = loc }
}

public struct ObjectValue: Hashable, Sendable {
    public var fields: [ObjectField]
    public var loc: Location?
    public init(_ fields: [ObjectField], loc: Location? = nil) { self.fields = fields; self.loc = loc }
}

public struct ObjectField: Hashable, Sendable {
    public var name: Name
    public var value: Value
    public var loc: Location?
    public init(name: Name, value: Value, loc: Location? = nil) {
        self.name = name; self.value = value; self.loc = loc
    }
}

// MARK: - Directives

public struct Directive: Hashable, Sendable {
    public var name: Name
    public var arguments: [Argument]
    public var loc: Location?

    public init(name: Name, arguments: [Argument] = [], loc: Location? = nil) {
        self.name = name
        self.arguments = arguments
        self.loc = loc
    }
}

// MARK: - Type references

/// A reference to a type as written in a document: `Name`, `[Type]` or `Type!`
/// (graphql-js's `TypeNode`).
public indirect enum TypeReference: Hashable, Sendable {
    case named(NamedType)
    case list(ListType)
    case nonNull(NonNullType)
}

public struct NamedType: Hashable, Sendable {
    public var name: Name
    public var loc: Location?
    public init(name: Name, loc: Location? = nil) { self.name = name; self.loc = loc }
}

public struct ListType: Hashable, Sendable {
    public var type: TypeReference
    public var loc: Location?
    public init(type: TypeReference, loc: Location? = nil) { self.type = type; self.loc = loc }
}

/// `Type!`: the wrapped type is never itself non-null.
public struct NonNullType: Hashable, Sendable {
    public var type: TypeReference
    public var loc: Location?
    public init(type: TypeReference, loc: Location? = nil) { self.type = type; self.loc = loc }
}

// MARK: - Type system definitions

public struct SchemaDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var loc: Location?

    public init(
        description: StringValue? = nil, directives: [Directive] = [],
        operationTypes: [OperationTypeDefinition], loc: Location? = nil
    ) {
        self.description = description
        self.directives = directives
        self.operationTypes = operationTypes
        self.loc = loc
    }
}

public struct OperationTypeDefinition: Hashable, Sendable {
    public var operation: OperationType
    public var type: NamedType
    public var loc: Location?
    public init(operation: OperationType, type: NamedType, loc: Location? = nil) {
        self.operation = operation; self.type = type; self.loc = loc
    }
}

public enum TypeDefinition: Hashable, Sendable {
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(InterfaceTypeDefinition)
    case union(UnionTypeDefinition)
    case `enum`(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)
}

public struct ScalarTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var loc: Location?
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], loc: Location? = nil) {
        self.description = description; self.name = name; self.directives = directives; self.loc = loc
    }
}

public struct ObjectTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.interfaces = interfaces
        self.directives = directives; self.fields = fields; self.loc = loc
    }
}

public struct FieldDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeReference
    public var directives: [Directive]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        type: TypeReference, directives: [Directive] = [], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.arguments = arguments
        self.type = type; self.directives = directives; self.loc = loc
    }
}

/// An argument definition or an input object's field definition.
public struct InputValueDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.type = type
        self.defaultValue = defaultValue; self.directives = directives; self.loc = loc
    }
}

public struct InterfaceTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.interfaces = interfaces
        self.directives = directives; self.fields = fields; self.loc = loc
    }
}

public struct UnionTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], types: [NamedType] = [],
        loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.directives = directives
        self.types = types; self.loc = loc
    }
}

public struct EnumTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        values: [EnumValueDefinition] = [], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.directives = directives
        self.values = values; self.loc = loc
    }
}

public struct EnumValueDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var loc: Location?
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], loc: Location? = nil) {
        self.description = description; self.name = name; self.directives = directives; self.loc = loc
    }
}

public struct InputObjectTypeDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        fields: [InputValueDefinition] = [], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.directives = directives
        self.fields = fields; self.loc = loc
    }
}

public struct DirectiveDefinition: Hashable, Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    /// Directives applied to the definition itself (`directive @a @b on FIELD`), as graphql-js 17
    /// and graphql-core 3.3 parse them.
    public var directives: [Directive]
    public var repeatable: Bool
    public var locations: [Name]
    public var loc: Location?
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        directives: [Directive] = [], repeatable: Bool = false, locations: [Name], loc: Location? = nil
    ) {
        self.description = description; self.name = name; self.arguments = arguments
        self.directives = directives
        self.repeatable = repeatable; self.locations = locations; self.loc = loc
    }
}

// MARK: - Type system extensions

public struct SchemaExtension: Hashable, Sendable {
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var loc: Location?
    public init(directives: [Directive] = [], operationTypes: [OperationTypeDefinition] = [], loc: Location? = nil) {
        self.directives = directives; self.operationTypes = operationTypes; self.loc = loc
    }
}

/// `extend scalar|type|interface|union|enum|input ...`: the same shapes as the definitions,
/// without descriptions.
public enum TypeExtension: Hashable, Sendable {
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(InterfaceTypeDefinition)
    case union(UnionTypeDefinition)
    case `enum`(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)
}
