import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiModels
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// What the API description promises about text and paging, in-process on fakes: text PostgreSQL cannot store
/// (U+0000) refused with 400 wherever a client can send it, an empty cursor read as the first page, and
/// `openapi.yaml` served as what it is.
@Suite("Gateway router: the contract's rules on text and paging")
struct ContractRouterTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    @Test("a recipe note with U+0000 is 400 bad_request, with a JSON Content-Type or none, and the note is unchanged")
    func noteWithNULIsRefused() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            for headers in [Self.json, [:]] {
                let answer = try await client.execute(.patch, path, token: token, headers: headers, body: ByteBuffer(string: #"{"note":"a\u0000b"}"#))
                #expect(answer.status == .badRequest)
                #expect(answer.errorCode == "bad_request")
            }
            #expect(try RecipesRouterTests.saved(try await client.execute(.get, path, token: token)).note == nil)
        }
    }

    @Test("a note with an escaped backslash before u0000 is plain text, and kept as sent")
    func escapedBackslashIsNotNUL() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await RecipesRouterTests.savedOmelette(client, token: token)
            let answer = try await client.execute(.patch, path, token: token, headers: Self.json, body: ByteBuffer(string: #"{"note":"a\\u0000b"}"#))
            #expect(answer.status == .ok)
            #expect(try RecipesRouterTests.saved(answer).note == #"a\u0000b"#)
        }
    }

    @Test("a profile with U+0000 in a dislike is 400 bad_request")
    func profileWithNULIsRefused() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(
                .put,
                "/v1/profile",
                token: token,
                headers: Self.json,
                body: ByteBuffer(string: #"{"dislikes":["olives\u0000"]}"#)
            )
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
        }
    }

    @Test(
        "a pantry or shopping-list item named with U+0000 is 400 bad_request, and nothing is stored",
        arguments: ["/v1/pantry/items", "/v1/shopping-list/items"]
    )
    func itemNameWithNULIsRefused(_ path: String) async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.post, path, token: token, headers: Self.json, body: ByteBuffer(string: #"{"name":"leek\u0000s"}"#))
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            let pantry = try await client.execute(.get, "/v1/pantry", token: token)
            #expect((try pantry.json()["items"] as? [Any])?.isEmpty == true)
            let list = try await client.execute(.get, "/v1/shopping-list", token: token)
            #expect((try list.json()["sections"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("U+0000 in a query string is 400 bad_request, and in a path 404 not_found", arguments: ["/v1/recipes?q=a%00b", "/v1/scans?cursor=%00"])
    func queryWithNULIsRefused(_ path: String) async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, path, token: token)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            let inPath = try await client.execute(.get, "/v1/recipes/%00", token: token)
            #expect(inPath.status == .notFound)
            #expect(inPath.errorCode == "not_found")
        }
    }

    @Test("a scan's mode field with U+0000 is 400 bad_request")
    func modeWithNULIsRefused() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let boundary = "kiwi-boundary"
            let body: [UInt8] =
                Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
                + testPhoto + Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"mode\"\r\n\r\nfridge\0\r\n--\(boundary)--\r\n".utf8)
            let answer = try await client.upload(body, contentType: "multipart/form-data; boundary=\(boundary)", token: token)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
        }
    }

    @Test("an empty cursor is the first page, as no cursor is", arguments: ["/v1/scans", "/v1/recipes", "/v1/pantry"])
    func emptyCursorIsFirstPage(_ list: String) async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            _ = try await RecipesRouterTests.savedOmelette(client, token: token)
            _ = try await client.execute(.post, "/v1/pantry/items", token: token, headers: Self.json, body: ByteBuffer(string: #"{"name":"Leeks"}"#))
            let first = try await client.execute(.get, list, token: token)
            let empty = try await client.execute(.get, "\(list)?cursor=", token: token)
            #expect(first.status == .ok && empty.status == .ok)
            let (firstPage, emptyCursorPage) = (try first.json() as NSDictionary, try empty.json() as NSDictionary)
            #expect(firstPage == emptyCursorPage)
            #expect(try first.json().values.contains { ($0 as? [Any])?.isEmpty == false })
        }
    }

    @Test("a cursor is read only in the form the API description states: digits, a dot and a UUID")
    func cursorForm() {
        let id = UUID()
        let cursor = PageCursor(createdAtMicroseconds: 1_764_115_200_000_000, id: id)
        #expect(cursor.token == "1764115200000000.\(id.uuidString.lowercased())")
        #expect(PageCursor(token: cursor.token) == cursor)
        for refused in ["-1.\(id)", "+1.\(id)", "1234567890123456789.\(id)", ".\(id)", "1.", "1.\(id).", "1 .\(id)"] {
            #expect(PageCursor(token: refused) == nil, "\(refused)")
        }
    }

    @Test("GET /openapi.yaml is YAML: its Content-Type says so and the body is the document's text, not its JSON")
    func openAPIYAMLIsYAML() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(String(buffer: answer.body).hasPrefix("openapi: 3.1.0\n"))
        }
    }
}
