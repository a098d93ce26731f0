import ArgumentParser
import GraphQL

/// `storykeep gql bench`: times the engine on one operation and prints one JSON object of median
/// microseconds per operation:
///
/// - `parse_us`: parsing the document;
/// - `validate_us`: validating it against the schema (all specified rules and limits);
/// - `execute_us`: executing it (plan compiled afresh, as without a cache), without serialising;
/// - `all_us`: parse + validate + execute + serialise the response as JSON;
/// - `cached_us`: the same request again through `GraphQLService` (document cache warm),
///   serialisation included.
///
/// A document that does not parse or validate is timed for parsing alone; the other figures are
/// null.
struct GQLBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time parse, validate and execute of one operation; print median µs per operation as JSON."
    )

    @OptionGroup var options: GQLOperationOptions

    @Option(help: "Seconds spent measuring each figure.")
    var seconds: Double = 1

    func run() async throws {
        let operation = try options.read()
        let (schema, root, text) = (operation.schema, operation.root, operation.text)
        let budget = Duration.milliseconds(Int64(max(seconds, 0.05) * 1000))

        var figures: [(String, Double?)] = [
            ("parse_us", await medianMicroseconds(budget) { _ = try? GraphQL.parse(Source(text)) })
        ]
        let source = Source(text)
        if let document = try? GraphQL.parse(source), GraphQL.validate(schema: schema, document: document, source: source).isEmpty {
            figures.append(
                ("validate_us", await medianMicroseconds(budget) { _ = GraphQL.validate(schema: schema, document: document) }))
            figures.append(
                ("execute_us", await medianMicroseconds(budget) {
                    _ = await GraphQL.execute(
                        schema: schema, document: document, source: source, rootValue: root, variableValues: operation.variables,
                        operationName: operation.operationName)
                }))
            figures.append(
                ("all_us", await medianMicroseconds(budget) {
                    let source = Source(text)
                    guard let document = try? GraphQL.parse(source) else { return }
                    _ = GraphQL.validate(schema: schema, document: document, source: source)
                    _ = await GraphQL.execute(
                        schema: schema, document: document, source: source, rootValue: root, variableValues: operation.variables,
                        operationName: operation.operationName
                    ).jsonBytes()
                }))
            let service = GraphQLService(schema: schema)
            let request = operation.request
            figures.append(
                ("cached_us", await medianMicroseconds(budget) {
                    _ = await service.execute(request, rootValue: root).jsonBytes()
                }))
        } else {
            figures += [("validate_us", nil), ("execute_us", nil), ("all_us", nil), ("cached_us", nil)]
        }
        var object = GraphQLObject()
        for (name, figure) in figures {
            object.append(name, figure.map { .float(($0 * 10).rounded() / 10) } ?? .null)
        }
        print(GraphQLValue.object(object).json)
    }

    /// The median time of one run of `body`, in microseconds, over samples taken for `budget`:
    /// each sample times a batch of runs lasting about a millisecond.
    private func medianMicroseconds(_ budget: Duration, _ body: () async -> Void) async -> Double {
        let clock = ContinuousClock()
        // Warm up, and size the batches.
        var runs = 0
        let warmup = clock.now
        while clock.now - warmup < .milliseconds(20) || runs < 3 {
            await body()
            runs += 1
        }
        let perRun = (clock.now - warmup) / runs
        let batch = max(1, Int(Duration.milliseconds(1) / perRun))
        var samples: [Double] = []
        let start = clock.now
        while clock.now - start < budget || samples.count < 5 {
            let began = clock.now
            for _ in 0..<batch { await body() }
            let elapsed = clock.now - began
            samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        samples.sort()
        return samples[samples.count / 2] / Double(batch)
    }
}
