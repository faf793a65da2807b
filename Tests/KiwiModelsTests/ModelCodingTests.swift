import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

/// The field names and date format are the contract with mobile clients: each model is checked
/// against literal JSON, in both directions.
@Suite("API model coding")
struct ModelCodingTests {
    private let midnight = Date(timeIntervalSince1970: 1_770_681_600)  // 2026-02-10T00:00:00Z

    @Test("ScanResponse decodes the literal fixture and encodes back to the same JSON, with the members added since")
    func scanResponseRoundTrip() throws {
        let data = try fixture("valid-scan-response.json")
        let response = try KiwiJSON.decoder().decode(ScanResponse.self, from: data)
        #expect(response.recipes[0].difficulty == .easy)
        #expect(response.recipes[0].ingredients[1].substitution == "A splash of olive oil")
        let encoded = try KiwiJSON.encoder().encode(response)
        guard case .object(var expected) = try StrictJSONParser().parse(data) else { throw CancellationError() }
        (expected["withheldRecipes"], expected["mode"]) = (.array([]), .string("fridge"))
        #expect(canonical(try StrictJSONParser().parse(encoded)) == canonical(.object(expected)))
    }

    @Test("an answer recorded before profiles and dish scans decodes as a fridge answer with nothing withheld")
    func answerBeforeProfilesDecodes() throws {
        let response = try KiwiJSON.decoder().decode(ScanResponse.self, from: Data(#"{"ingredients": [], "recipes": []}"#.utf8))
        #expect(response == ScanResponse(ingredients: [], recipes: []))
        #expect(response.mode == .fridge && response.withheldRecipes.isEmpty && response.appliedProfile == nil && response.dish == nil)
    }

    @Test("null makeItFasterTip and substitution are written as explicit nulls")
    func nullsAreExplicit() throws {
        let recipe = Recipe(
            id: UUID(),
            name: "Toast",
            summary: "Toast.",
            cookTimeMinutes: 3,
            difficulty: .easy,
            ingredients: [RecipeIngredient(id: UUID(), name: "Bread", isDetected: true, substitution: nil)],
            steps: ["Toast it."],
            makeItFasterTip: nil
        )
        let text = String(decoding: try KiwiJSON.encoder().encode(recipe), as: UTF8.self)
        #expect(text.contains(#""makeItFasterTip":null"#))
        #expect(text.contains(#""substitution":null"#))
    }

    @Test("QuotaInfo reads and writes resetsAt as ISO 8601 UTC without fractional seconds")
    func quotaInfoCoding() throws {
        let literal = #"{"remaining":2,"limit":4,"resetsAt":"2026-02-10T00:00:00Z"}"#
        let quota = try KiwiJSON.decoder().decode(QuotaInfo.self, from: Data(literal.utf8))
        #expect(quota == QuotaInfo(remaining: 2, limit: 4, resetsAt: midnight))
        #expect(canonical(try json(String(decoding: try KiwiJSON.encoder().encode(quota), as: UTF8.self))) == canonical(try json(literal)))
    }

    @Test("the sign-in request and session response use the contract's names")
    func authModelsCoding() throws {
        let request = try KiwiJSON.decoder().decode(AppleSignInRequest.self, from: Data(#"{"identityToken":"eyJ.a.b"}"#.utf8))
        #expect(request.identityToken == "eyJ.a.b")
        let session = SessionResponse(sessionToken: "abc_-123", expiresAt: midnight)
        let text = String(decoding: try KiwiJSON.encoder().encode(session), as: UTF8.self)
        #expect(canonical(try json(text)) == canonical(try json(#"{"sessionToken":"abc_-123","expiresAt":"2026-02-10T00:00:00Z"}"#)))
    }

    @Test("an error body has error and message, and resetsAt only when given")
    func errorBodyCoding() throws {
        let plain = String(decoding: try KiwiJSON.encoder().encode(ErrorBody(error: .unauthorized, message: "Sign in again.")), as: UTF8.self)
        #expect(canonical(try json(plain)) == canonical(try json(#"{"error":"unauthorized","message":"Sign in again."}"#)))
        let limited = ErrorBody(error: .rateLimitExceeded, message: "You've reached your daily scan limit.", resetsAt: midnight)
        let text = String(decoding: try KiwiJSON.encoder().encode(limited), as: UTF8.self)
        #expect(text.contains(#""resetsAt":"2026-02-10T00:00:00Z""#))
    }

    @Test("an error code the client does not know still decodes")
    func unknownErrorCodeDecodes() throws {
        let body = try KiwiJSON.decoder().decode(ErrorBody.self, from: Data(#"{"error":"brand_new","message":"m"}"#.utf8))
        #expect(body.error.rawValue == "brand_new")
    }

    @Test("account deletion and health answers use the contract's names")
    func smallBodiesCoding() throws {
        #expect(String(decoding: try KiwiJSON.encoder().encode(AccountDeletionResponse(deleted: true)), as: UTF8.self) == #"{"deleted":true}"#)
        #expect(String(decoding: try KiwiJSON.encoder().encode(HealthStatus.ok), as: UTF8.self) == #"{"status":"ok"}"#)
    }
}
