import Foundation
import StorykeepCore

/// The GraphiQL page of the explorer: a fixed bootstrap script, the tenant's endpoint in an
/// attribute, the assets from the CDN or the agency's own folder, and the Content-Security-Policy
/// that holds the page to them.
struct ExplorerPage: Sendable {
    /// One script or style file of the page, with the Subresource Integrity hash (`sha384-…` or
    /// `sha256-…`) the browser checks it against, where the server knows the file.
    struct Asset: Sendable, Equatable {
        var url: String
        var integrity: String?

        /// The `src`/`href`, `integrity` and `crossorigin` attributes of its element.
        func attributes(_ name: String) -> String {
            var attributes = "\(name)=\"\(ExplorerPage.escaped(url))\""
            if let integrity { attributes += " integrity=\"\(integrity)\"" }
            return attributes + " crossorigin=\"anonymous\""
        }
    }

    /// The page's script and style files.
    struct Assets: Sendable, Equatable {
        var react: Asset
        var reactDOM: Asset
        var graphiQL: Asset
        var graphiQLStyle: Asset
        /// The CSP source the four are loaded from.
        var source: String

        /// Pinned versions on jsDelivr's npm mirror, each with its Subresource Integrity hash, so
        /// that a changed file on the CDN does not run: React 17.0.2's UMD builds and GraphiQL
        /// 2.4.7 (the pair graphene-django's explorer loads from the same URLs).
        ///
        /// How the hashes were obtained, the CDN being out of reach where this was written: React's
        /// two are SHA-384 digests computed here from the files themselves, as PyPI's
        /// `graphene-django-graphiql-static` 0.8 ships them; their SHA-256 digests equal the ones
        /// graphene-django 3.x publishes for these URLs, so the bytes are the CDN's. GraphiQL's
        /// two are the SHA-256 digests graphene-django 3.1.2 (and later) publishes for these URLs;
        /// no copy of GraphiQL 2.4.7 was at hand to recompute them. Should one ever be wrong, the
        /// browser refuses the file and the page stays at "Loading…": it fails closed.
        static let cdn = Assets(
            react: Asset(
                url: "https://cdn.jsdelivr.net/npm/react@17.0.2/umd/react.production.min.js",
                integrity: "sha384-7Er69WnAl0+tY5MWEvnQzWHeDFjgHSnlQfDDeWUvv8qlRXtzaF/pNo18Q2aoZNiO"),
            reactDOM: Asset(
                url: "https://cdn.jsdelivr.net/npm/react-dom@17.0.2/umd/react-dom.production.min.js",
                integrity: "sha384-vj2XpC1SOa8PHrb0YlBqKN7CQzJYO72jz4CkDQ+ePL1pwOV4+dn05rPrbLGUuvCv"),
            graphiQL: Asset(
                url: "https://cdn.jsdelivr.net/npm/graphiql@2.4.7/graphiql.min.js",
                integrity: "sha256-n/LKaELupC1H/PU6joz+ybeRJHT2xCdekEt6OYMOOZU="),
            graphiQLStyle: Asset(
                url: "https://cdn.jsdelivr.net/npm/graphiql@2.4.7/graphiql.min.css",
                integrity: "sha256-OsbM+LQHcnFHi0iH7AUKueZvDcEBoy/z4hJ7jx1cpsM="),
            source: "https://cdn.jsdelivr.net")

        /// The same files under their npm names in `folder` (ending in `/`), as
        /// ``StorykeepConfig/Explorer/assetsURL`` names it: without integrity hashes, since the
        /// agency chooses the files (React 17 or 18, GraphiQL 2 or 3) and serves them itself.
        static func hosted(at folder: String) -> Assets {
            Assets(
                react: Asset(url: folder + "react.production.min.js"), reactDOM: Asset(url: folder + "react-dom.production.min.js"),
                graphiQL: Asset(url: folder + "graphiql.min.js"), graphiQLStyle: Asset(url: folder + "graphiql.min.css"), source: folder)
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
    /// parameter of the page's URL is the first query shown. React 18's `createRoot` where the
    /// assets have it, React 17's `render` otherwise.
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
          var explorer = React.createElement(GraphiQL, props);
          if (ReactDOM.createRoot) ReactDOM.createRoot(root).render(explorer); else ReactDOM.render(explorer, root);
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
        <link rel="stylesheet" \(assets.graphiQLStyle.attributes("href"))>
        <style>body { margin: 0; } #explorer { height: 100vh; }</style>
        </head>
        <body>
        <div id="explorer" data-endpoint="\(Self.escaped(endpoint))">Loading the GraphQL explorer…</div>
        <script \(assets.react.attributes("src"))></script>
        <script \(assets.reactDOM.attributes("src"))></script>
        <script \(assets.graphiQL.attributes("src"))></script>
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
