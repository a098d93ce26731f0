import Foundation
import StorykeepServer
import StorykeepTestSupport
import Testing

import Storykeep

/// The live limits and the webhooks' settings in the server's configuration (`live.*`,
/// `webhooks.*`), read as every other setting is: Config/storykeep.json of the checkout, then
/// the environment.
@Suite struct LiveConfigTests {
    @Test func theFileHoldsTheLimitsTheServerHadBuiltIn() async throws {
        let config = try await StorykeepConfig.load(environment: [:], directory: repositoryRoot.path)
        let limits = LiveLimits(config.live)
        let builtIn = LiveLimits()
        #expect(limits.connectionsPerPerson == builtIn.connectionsPerPerson && limits.connectionsPerTenant == builtIn.connectionsPerTenant)
        #expect(limits.subscriptionsPerConnection == builtIn.subscriptionsPerConnection && limits.maxMessageBytes == builtIn.maxMessageBytes)
        #expect(limits.initTimeout == builtIn.initTimeout && limits.idleTimeout == builtIn.idleTimeout)
        #expect(config.live.queueBound == LiveEvents().bufferLimit)
        #expect(config.webhooks.deliveryInterval == .seconds(5) && config.webhooks.timeout == .seconds(10))
    }

    @Test func theEnvironmentSetsThemAndAValueOutOfRangeNamesItsKey() async throws {
        let directory = repositoryRoot.path
        let config = try await StorykeepConfig.load(
            environment: [
                "STORYKEEP_LIVE_CONNECTIONS_PER_PERSON": "3", "STORYKEEP_LIVE_CONNECTIONS_PER_TENANT": "40",
                "STORYKEEP_LIVE_SUBSCRIPTIONS_PER_CONNECTION": "5", "STORYKEEP_LIVE_MAX_MESSAGE_BYTES": "4096",
                "STORYKEEP_LIVE_INIT_TIMEOUT_SECONDS": "2", "STORYKEEP_LIVE_IDLE_TIMEOUT_SECONDS": "60", "STORYKEEP_LIVE_QUEUE_BOUND": "16",
                "STORYKEEP_WEBHOOKS_DELIVERY_INTERVAL_SECONDS": "1", "STORYKEEP_WEBHOOKS_TIMEOUT_SECONDS": "30",
            ], directory: directory)
        let limits = LiveLimits(config.live)
        #expect(limits.connectionsPerPerson == 3 && limits.connectionsPerTenant == 40 && limits.subscriptionsPerConnection == 5)
        #expect(limits.maxMessageBytes == 4096 && limits.initTimeout == .seconds(2) && limits.idleTimeout == .seconds(60))
        #expect(config.live.queueBound == 16)
        #expect(config.webhooks.deliveryInterval == .seconds(1) && config.webhooks.timeout == .seconds(30))
        await #expect(throws: ConfigError.invalid("live.queueBound", expected: "a value from 1 to 100000", found: "0")) {
            try await StorykeepConfig.load(environment: ["STORYKEEP_LIVE_QUEUE_BOUND": "0"], directory: directory)
        }
        await #expect(throws: ConfigError.invalid("webhooks.timeoutSeconds", expected: "a value from 1 to 60", found: "61")) {
            try await StorykeepConfig.load(environment: ["STORYKEEP_WEBHOOKS_TIMEOUT_SECONDS": "61"], directory: directory)
        }
    }
}
