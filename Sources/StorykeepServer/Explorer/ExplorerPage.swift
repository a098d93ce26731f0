import Foundation
import StorykeepCore

/// The GraphiQL page of the explorer: a fixed bootstrap script, the tenant's endpoint in an
/// attribute, the assets from the CDN or the agency's own folder, and the Content-Security-Policy
/// that holds the page to them.
struct ExplorerPage: Sendable {
    /// The page's script and style files.
    struct Assets: Sendable, Equatable {
        var react: String
        var reactDOM: String
        var graphiQL: String
        var graphiQLStyle: String
        /// The CSP source the four are loaded from.
        var source: String

        /// Pinned versions on unpkg (React 18's UMD builds, GraphiQL 3's). No subresource
        /// integrity hashes: the server was written where the CDN could not be reached, and a
        /// hash not computed from the files themselves would be a guess; an agency that wants
        /// certainty hosts the files itself (`explorer.assetsUrl`).
        static let cdn = Assets(
            react: "https://unpkg.com/react@18.3.1/umd/react.production.min.js",
            reactDOM: "https://unpkg.com/react-dom@18.3.1/umd/react-dom.production.min.js",
            graphiQL: "https://unpkg.com/graphiql@3.8.3/graphiql.min.js",
            graphiQLStyle: "https://unpkg.com/graphiql@3.8.3/graphiql.min.css",
            source: "https://unpkg.com")

        /// The same files under their npm names in `folder` (ending in `/`), as
        /// ``StorykeepConfig/Explorer/assetsURL`` names it.
        static func hosted(at folder: String) -> Assets {
            Assets(
                react: folder + "react.production.min.js", reactDOM: folder + "react-dom.production.min.js",
                graphiQL: folder + "graphiql.min.js", graphiQLStyle: folder + "graphiql.min.css", source: folder)
        }
    }

    let assets: Assets

    init(assetsURL: String?) {
        assets = assetsURL.map(Assets.hosted(at:)) ?? .cdn
    }

    /// Runs GraphiQL against the endpoint named by `data-endpoint`, sending requests as the app
    /// does: JSON POSTs with `Authorization: Bearer <token>` once a `login` or `activateAccount`
    /// answered one (kept in the tab's sessionStorage, gone with the tab), unless the Headers
    /// tab sets its own `Authorization`; a `logout` forgets it. Never a cookie. A `query`
    /// parameter of the page's URL is the first query shown.
    static let script = """
        (function () {
          var root = document.getElementById("explorer");
          var endpoint = root.getAttribute("data-endpoint");
          var key = "storykeep-explorer-token " + endpoint;
          function fetcher(params, options) {
            var headers = { "content-type": "application/json", "accept": "application/graphql-response+json, application/json" };
            var own = (options && options.headers) || {};
            Object.keys(own).forEach(function (name) { headers[name.toLowerCase()] = own[name]; });
            var token = sessionStorage.getItem(key);
            if (token && !headers.authorization) headers.authorization = "Bearer " + token;
            return fetch(endpoint, { method: "POST", headers: headers, body: JSON.stringify(params), credentials: "omit" })
              .then(function (response) { return response.json(); })
              .then(function (body) {
                var data = (body && body.data) || {};
                Object.keys(data).forEach(function (field) {
                  var value = data[field];
                  if (value && typeof value.token === "string") sessionStorage.setItem(key, value.token);
                });
                if (data.logout === true || data.logoutEverywhere === true) sessionStorage.removeItem(key);
                return body;
              });
          }
          var query = new URLSearchParams(window.location.search).get("query");
          var props = { fetcher: fetcher, shouldPersistHeaders: false };
          if (query) props.defaultQuery = query;
          ReactDOM.createRoot(root).render(React.createElement(GraphiQL, props));
        })();
        """

    /// The script's CSP hash (`'sha256-…'`), so that no other inline script runs.
    static let scriptHash = "'sha256-" + Data(Crypto.sha256(Array(script.utf8))).base64EncodedString() + "'"

    /// The Content-Security-Policy of the page: scripts from the assets and the bootstrap alone,
    /// requests to this origin alone (the endpoint), no framing.
    var contentSecurityPolicy: String {
        let source = assets.source
        return [
            "default-src 'none'", "script-src \(source) \(Self.scriptHash)", "style-src \(source) 'unsafe-inline'",
            "img-src \(source) data:", "font-src \(source) data:", "connect-src 'self'", "base-uri 'none'",
            "form-action 'none'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The page for a tenant called `title` whose GraphQL endpoint is `endpoint` (a path).
    func html(title: String, endpoint: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <title>\(Self.escaped(title)) · GraphQL explorer</title>
        <link rel="stylesheet" href="\(assets.graphiQLStyle)" crossorigin="anonymous">
        <style>body { margin: 0; } #explorer { height: 100vh; }</style>
        </head>
        <body>
        <div id="explorer" data-endpoint="\(Self.escaped(endpoint))">Loading the GraphQL explorer…</div>
        <script src="\(assets.react)" crossorigin="anonymous"></script>
        <script src="\(assets.reactDOM)" crossorigin="anonymous"></script>
        <script src="\(assets.graphiQL)" crossorigin="anonymous"></script>
        <script>\(Self.script)</script>
        </body>
        </html>

        """
    }

    /// `text` safe in HTML text and in a quoted attribute.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
