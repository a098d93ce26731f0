extension TypeDefinition {
    /// What every kind of type definition has: its name and where it stands in its source.
    private var parts: (name: Name, loc: Location?) {
        switch self {
        case .scalar(let node): (node.name, node.loc)
        case .object(let node): (node.name, node.loc)
        case .interface(let node): (node.name, node.loc)
        case .union(let node): (node.name, node.loc)
        case .enum(let node): (node.name, node.loc)
        case .inputObject(let node): (node.name, node.loc)
        }
    }

    /// The defined type's name.
    var name: String { parts.name.value }

    /// Where the definition stands in its source.
    var loc: Location? { parts.loc }
}

extension TypeExtension {
    /// The extension's content as the definition node of the same shape.
    var definition: TypeDefinition {
        switch self {
        case .scalar(let node): .scalar(node)
        case .object(let node): .object(node)
        case .interface(let node): .interface(node)
        case .union(let node): .union(node)
        case .enum(let node): .enum(node)
        case .inputObject(let node): .inputObject(node)
        }
    }

    /// The name of the type it extends.
    var name: String { definition.name }

    /// Where the extension stands in its source.
    var loc: Location? { definition.loc }
}
