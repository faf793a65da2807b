import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import NIOCore
import Testing

@testable import KiwiGateway

/// `GET` and `PUT /v1/profile`, and the profile's way into scan jobs, in-process on fakes.
@Suite("Gateway router: profile")
struct ProfileRouterTests {
    static let vegan = #"{"diets": ["vegan"], "allergies": ["tree_nuts"], "dislikes": ["Olives"], "maxCookTimeMinutes": 20, "servings": 2}"#

    @Test("a user who never set a profile gets the empty profile, every member present")
    func emptyProfile() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/profile", token: token)
            #expect(answer.status == .ok)
            #expect(try JSONDecoder().decode(KitchenProfile.self, from: Data(answer.body.readableBytesView)) == KitchenProfile())
            #expect(try answer.json().keys.sorted() == ["allergies", "diets", "dislikes", "maxCookTimeMinutes", "servings"])
        }
    }

    @Test("PUT replaces the profile and answers it as kept; GET then reads it back")
    func replaceAndRead() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let put = try await client.execute(.put, "/v1/profile", token: token, body: ByteBuffer(string: Self.vegan))
            #expect(put.status == .ok)
            let expected = KitchenProfile(diets: [.vegan], allergies: [.treeNuts], dislikes: ["olives"], maxCookTimeMinutes: 20, servings: 2)
            #expect(try JSONDecoder().decode(KitchenProfile.self, from: Data(put.body.readableBytesView)) == expected)
            let get = try await client.execute(.get, "/v1/profile", token: token)
            #expect(try JSONDecoder().decode(KitchenProfile.self, from: Data(get.body.readableBytesView)) == expected)
            // The whole document: what a second PUT leaves out is gone.
            _ = try await client.execute(.put, "/v1/profile", token: token, body: ByteBuffer(string: #"{"allergies": ["milk"]}"#))
            let replaced = try await client.execute(.get, "/v1/profile", token: token)
            #expect(try JSONDecoder().decode(KitchenProfile.self, from: Data(replaced.body.readableBytesView)) == KitchenProfile(allergies: [.milk]))
        }
    }

    @Test("a profile that breaks a rule is 400 bad_request naming the rule, and the kept one is unchanged")
    func refusesBrokenRule() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.profiles.save(KitchenProfile(allergies: [.milk]), for: session.userId)
        try await gateway.test { client async throws in
            let answer = try await client.execute(.put, "/v1/profile", token: token, body: ByteBuffer(string: #"{"servings": 40}"#))
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            #expect((try answer.json()["message"] as? String)?.contains("$.servings: must be between 1 and 12, found 40") == true)
        }
        #expect(try await gateway.profiles.profile(of: session.userId) == KitchenProfile(allergies: [.milk]))
    }

    @Test("the profile needs a signed-in user")
    func needsSignIn() async throws {
        try await FakeGateway().test { client async throws in
            #expect(try await client.execute(.get, "/v1/profile", token: nil).status == .unauthorized)
            #expect(try await client.execute(.put, "/v1/profile", token: nil, body: ByteBuffer(string: "{}")).status == .unauthorized)
        }
    }

    @Test("a scan's job carries the profile as it was when the scan started; without one, none")
    func scanJobCarriesProfile() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.scan(testPhoto, token: token).status == .ok)
            try await gateway.profiles.save(KitchenProfile(diets: [.vegan]), for: session.userId)
            #expect(try await client.scan(testPhoto, token: token).status == .ok)
        }
        #expect(gateway.workers.profiles == [nil, KitchenProfile(diets: [.vegan])])
    }

    @Test("deleting the account deletes the profile")
    func accountDeletionDeletesProfile() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.profiles.save(KitchenProfile(allergies: [.fish]), for: session.userId)
        try await gateway.test { client async throws in
            #expect(try await client.execute(.delete, "/v1/account", token: token).status == .ok)
        }
        #expect(try await gateway.profiles.profile(of: session.userId) == nil)
    }
}
