// HTTP: GraphQL over HTTP, media, health, tenant routing.
