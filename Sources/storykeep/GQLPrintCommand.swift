import ArgumentParser
import GraphQL

/// `storykeep gql print`: prints a document in canonical form (graphql-js's `print`). A document
/// that does not parse prints its syntax error as a response would (`{"errors": [...]}`).
struct GQLPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a GraphQL document in canonical form."
    )

    @ArgumentParser.Argument(help: "The GraphQL document's file.")
    var file: String

    func run() throws {
        let source = Source(try GQLInput.text(file))
        do {
            Swift.print(GraphQL.print(try GraphQL.parse(source)))
        } catch {
            Swift.print(GraphQLResponse(errors: [error]).json)
        }
    }
}
