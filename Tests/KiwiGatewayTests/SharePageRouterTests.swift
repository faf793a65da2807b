import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// Sharing a saved recipe as a public page, in-process on fakes: the link, the page and what it must not show, its
/// caching, its withdrawal, and the limit per client.
@Suite("Gateway router: shared recipe pages")
struct SharePageRouterTests {
    /// Shares `path`'s recipe and returns the answer and the page's path.
    static func share(_ client: some TestClientProtocol, _ path: String, token: String) async throws -> (TestResponse, String) {
        let answer = try await client.execute(.post, path + "/share", token: token)
        let link = try KiwiJSON.decoder().decode(RecipeShareLink.self, from: Data(answer.body.readableBytesView))
        return (answer, link.url.path)
    }

    @Test("sharing answers 201 with a link of 256 random bits under PUBLIC_BASE_URL; sharing again the same link with 200")
    func shareGivesOneLink() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            let (first, page) = try await Self.share(client, path, token: token)
            #expect(first.status == .created)
            let link = try KiwiJSON.decoder().decode(RecipeShareLink.self, from: Data(first.body.readableBytesView))
            #expect(link.url.absoluteString.hasPrefix("http://localhost:8080/r/"))
            #expect(Data(base64URLEncoded: String(page.dropFirst(3)))?.count == 32)
            let (again, samePage) = try await Self.share(client, path, token: token)
            #expect(again.status == .ok)
            #expect(samePage == page)
        }
    }

    @Test("the page shows the recipe, its JSON-LD and Open Graph tags, runs no script and shows nothing of its owner")
    func pageShowsRecipeOnly() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            _ = try await client.execute(.patch, path, token: token, body: ByteBuffer(string: #"{"note":"Secret family note","rating":2}"#))
            let (_, page) = try await Self.share(client, path, token: token)
            let answer = try await client.execute(uri: page, method: .get)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            #expect(answer.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let html = String(buffer: answer.body)
            for text in [
                "<h1>Spinach Omelette</h1>", "feta <span class=\"missing\">(missing — use any crumbly cheese)</span>",
                "<li>Whisk the eggs.</li>", "Make it faster:</strong> Use a small pan.", #"property="og:title" content="Spinach Omelette""#,
                #"<script type="application/ld+json">{"@context":"https://schema.org""#,
            ] {
                #expect(html.contains(text), "missing: \(text)")
            }
            #expect(html.components(separatedBy: "<script").count == 2, "a script besides the JSON-LD")
            #expect(!html.contains("Secret family note"))
        }
    }

    @Test("the page is cacheable only with revalidation: an ETag, Cache-Control no-cache, and 304 for a matching If-None-Match")
    func pageRevalidates() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            let (_, page) = try await Self.share(client, path, token: token)
            let first = try await client.execute(uri: page, method: .get)
            let etag = try #require(first.headers[.eTag])
            #expect(first.headers[.cacheControl] == "public, no-cache")
            let again = try await client.execute(uri: page, method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
        }
    }

    @Test("withdrawing the share makes the page 404 at once; sharing again makes a new link, and the old one stays dead")
    func unshareWithdrawsPage() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            let (_, page) = try await Self.share(client, path, token: token)
            #expect(try await client.execute(.delete, path + "/share", token: token).status == .noContent)
            #expect(try await client.execute(uri: page, method: .get).status == .notFound)
            let (again, newPage) = try await Self.share(client, path, token: token)
            #expect(again.status == .created)
            #expect(newPage != page)
            #expect(try await client.execute(uri: page, method: .get).status == .notFound)
            #expect(try await client.execute(uri: newPage, method: .get).status == .ok)
        }
    }

    @Test("deleting the recipe, or the account, takes its page down; another user cannot share or withdraw it")
    func pageGoesWithItsRecipe() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        let (other, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            #expect(try await client.execute(.post, path + "/share", token: other).status == .notFound)
            #expect(try await client.execute(.delete, path + "/share", token: other).status == .notFound)
            let (_, page) = try await Self.share(client, path, token: token)
            #expect(try await client.execute(.delete, path, token: token).status == .noContent)
            #expect(try await client.execute(uri: page, method: .get).status == .notFound)
            let (_, again) = try await RecipesRouterTests.savedOmelette(client, token: token)
            let (_, otherPage) = try await Self.share(client, again, token: token)
            #expect(try await client.execute(.delete, "/v1/account", token: token).status == .ok)
            #expect(try await client.execute(uri: otherPage, method: .get).status == .notFound)
        }
    }

    @Test("a client over its limit of pages is answered 429 with Retry-After")
    func pagesLimitedPerClient() async throws {
        let gateway = FakeGateway(
            workers: .answer(.ok(RecipesRouterTests.answer), modelTime: nil),
            sharePageLimit: RateLimit(burst: 2, perSecond: 0.01)
        )
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            let (_, page) = try await Self.share(client, path, token: token)
            #expect(try await client.execute(uri: page, method: .get).status == .ok)
            #expect(try await client.execute(uri: page, method: .get).status == .ok)
            let refused = try await client.execute(uri: page, method: .get)
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
        }
    }

    @Test("an unknown or malformed token is 404")
    func unknownTokenNotFound() async throws {
        try await RecipesRouterTests.gateway().test { client async throws in
            for page in ["/r/" + String(repeating: "A", count: 43), "/r/short", "/r/" + String(repeating: "A", count: 44)] {
                #expect(try await client.execute(uri: page, method: .get).status == .notFound)
            }
        }
    }
}

@Suite("Client rate limiter")
struct ClientRateLimiterTests {
    @Test("a client gets its burst, then one request per 1/perSecond; other clients are not affected")
    func bucketRefills() {
        let limiter = ClientRateLimiter(RateLimit(burst: 2, perSecond: 1))
        let start = ContinuousClock.now
        #expect(limiter.take(for: "a", at: start) == nil)
        #expect(limiter.take(for: "a", at: start) == nil)
        #expect(limiter.take(for: "a", at: start) == 1)
        #expect(limiter.take(for: "b", at: start) == nil)
        #expect(limiter.take(for: "a", at: start + .seconds(1)) == nil)
        #expect(limiter.take(for: "a", at: start + .seconds(1)) == 1)
    }
}
