import Foundation
import KiwiModels
import KiwiStrictJSON
import NIOCore
import Testing

@testable import KiwiScanWorker

@Suite("The Chat Completions request")
struct ScanPromptTests {
    let prompt = ScanPrompt(model: "gpt-4o", detail: .high)
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0xFF, 0xD9]

    func request(_ repair: ScanPrompt.Repair? = nil) throws -> [String: Any] {
        let body = prompt.requestBody(images: [.init(jpeg: jpeg)], safetyIdentifier: "0123456789abcdef0123456789abcdef", repair: repair)
        return try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
    }

    @Test("the system prompt is the one docs/architecture.md gives, verbatim")
    func systemPromptIsVerbatim() throws {
        #expect(ScanPrompt.systemPrompt == String(decoding: try fixture("system-prompt.txt"), as: UTF8.self))
    }

    @Test(
        "every system prompt asks for the profile's servings, else 2, an amount and unit per ingredient and a duration per waiting step",
        arguments: [ScanPrompt.systemPrompt, ScanPrompt.dishSystemPrompt, ScanPrompt.refinementSystemPrompt]
    )
    func promptsAskForQuantities(_ prompt: String) {
        #expect(prompt.contains("for the servings the household's profile gives, else for 2"))
        #expect(prompt.contains(#"its "amount" for those servings and its "unit""#))
        #expect(prompt.contains(#""to taste" with a null amount"#))
        #expect(prompt.contains(#""stepDetails" exactly one item per step"#))
    }

    @Test("the request carries the model, temperature 0.3, 4,096 completion tokens, the strict schema and the safety identifier")
    func requestParameters() throws {
        let request = try request()
        #expect(request["model"] as? String == "gpt-4o")
        #expect(request["temperature"] as? Double == 0.3)
        #expect(request["max_completion_tokens"] as? Int == 4096)
        #expect(request["safety_identifier"] as? String == "0123456789abcdef0123456789abcdef")
        let format = try #require(request["response_format"] as? [String: Any])
        let schema = try #require(format["json_schema"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema" && schema["strict"] as? Bool == true)
        #expect(
            try JSONSerialization.data(withJSONObject: schema["schema"]!, options: .sortedKeys)
                == JSONSerialization.data(
                    withJSONObject: JSONSerialization.jsonObject(with: Data(ScanResponseContract.jsonSchema(answeringIn: .en).serialized().utf8)),
                    options: .sortedKeys
                )
        )
    }

    @Test("the photo travels as a base64 JPEG data URL with the configured detail, after the system prompt")
    func imagePart() throws {
        let messages = try #require(try request()["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["system", "user"])
        #expect(messages[0]["content"] as? String == ScanPrompt.systemPrompt)
        let part = try #require((messages[1]["content"] as? [[String: Any]])?.first)
        let imageURL = try #require(part["image_url"] as? [String: String])
        #expect(part["type"] as? String == "image_url")
        #expect(imageURL["detail"] == "high")
        let url = try #require(imageURL["url"])
        #expect(url.hasPrefix("data:image/jpeg;base64,"))
        #expect(Data(base64Encoded: String(url.dropFirst("data:image/jpeg;base64,".count))) == Data(jpeg))
    }

    @Test("a repair request shows the model its answer and the problem, after the original messages")
    func repairRequest() throws {
        let messages = try #require(
            try request(ScanPrompt.Repair(previousAnswer: "{\"ingredients\":", problem: "$: not valid JSON"))["messages"] as? [[String: Any]]
        )
        #expect(messages.map { $0["role"] as? String } == ["system", "user", "assistant", "user"])
        #expect(messages[2]["content"] as? String == "{\"ingredients\":")
        #expect((messages[3]["content"] as? String)?.contains("$: not valid JSON") == true)
    }

    @Test("a refusal's repair has no assistant message to echo")
    func refusalRepair() throws {
        let messages = try #require(try request(ScanPrompt.Repair(previousAnswer: nil, problem: "you declined"))["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["system", "user", "user"])
    }

    @Test(
        "an answer that is, or contains, the image placeholder is echoed unchanged and the image goes where it belongs",
        arguments: ["kiwi:image:0", "\"kiwi:image:0\""]
    )
    func placeholderInAnswerIsHarmless(_ answer: String) throws {
        let messages = try #require(try request(ScanPrompt.Repair(previousAnswer: answer, problem: "x"))["messages"] as? [[String: Any]])
        #expect(messages[2]["content"] as? String == answer)
        let part = try #require((messages[1]["content"] as? [[String: Any]])?.first?["image_url"] as? [String: String])
        #expect(part["url"]?.hasPrefix("data:image/jpeg;base64,") == true)
    }

    /// The request as JSON, built from `images` with `mode` and `profile`.
    func request(images: [[UInt8]], mode: ScanMode = .fridge, profile: KitchenProfile? = nil) throws -> [String: Any] {
        let body = prompt.requestBody(images: images.map { .init(jpeg: $0) }, mode: mode, safetyIdentifier: "user", profile: profile)
        return try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
    }

    @Test("several photos are one image part each, in the order given, then a text part saying they show one kitchen")
    func severalImages() throws {
        let photos = (0..<3).map { jpeg + [UInt8($0)] }
        let messages = try #require(try request(images: photos)["messages"] as? [[String: Any]])
        let parts = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["image_url", "image_url", "image_url", "text"])
        let urls = parts.prefix(3).compactMap { ($0["image_url"] as? [String: String])?["url"] }
        #expect(urls.map { Data(base64Encoded: String($0.dropFirst("data:image/jpeg;base64,".count))) } == photos.map { Data($0) })
        #expect((parts[3]["text"] as? String)?.hasPrefix("These 3 photos show parts of one kitchen") == true)
    }

    @Test("a dish request has the dish instructions and the kiwi_dish schema")
    func dishRequest() throws {
        let request = try request(images: [jpeg], mode: .dish)
        let messages = try #require(request["messages"] as? [[String: Any]])
        #expect(messages[0]["content"] as? String == ScanPrompt.dishSystemPrompt)
        let schema = try #require((request["response_format"] as? [String: Any])?["json_schema"] as? [String: Any])
        #expect(schema["name"] as? String == "kiwi_dish")
        #expect((schema["schema"] as? [String: Any])?["required"] as? [String] == ["dish"])
    }

    @Test("a profile's language is asked for after its constraints, the schema's fixed values kept; English asks nothing")
    func languageIsAsked() throws {
        let german = try #require(try request(images: [jpeg], profile: KitchenProfile(language: .de))["messages"] as? [[String: Any]])
        let text = try #require((german[1]["content"] as? [[String: Any]])?.last?["text"] as? String)
        #expect(text.hasPrefix("Write every name, summary, step, substitution and tip in German"))
        #expect(text.contains("Keep the JSON keys and the schema's fixed values"))
        let english = try #require(try request(images: [jpeg], profile: KitchenProfile(language: .en))["messages"] as? [[String: Any]])
        #expect((english[1]["content"] as? [[String: Any]])?.count == 1, "the photo alone")
    }

    @Test("a profile's units ask for amounts in them and temperatures in °F or °C")
    func unitsAreAsked() throws {
        let messages = try #require(try request(images: [jpeg], profile: KitchenProfile(units: .us))["messages"] as? [[String: Any]])
        let text = try #require((messages[1]["content"] as? [[String: Any]])?.last?["text"] as? String)
        #expect(text.contains("cups") && text.contains("°F"))
    }

    @Test("a receipt's foods are named in the profile's language, each with its English name; no units are asked")
    func receiptAsksOnlyTheLanguage() throws {
        let profile = KitchenProfile(language: .it, units: .us)
        let messages = try #require(try request(images: [jpeg], mode: .receipt, profile: profile)["messages"] as? [[String: Any]])
        let text = try #require((messages[1]["content"] as? [[String: Any]])?.last?["text"] as? String)
        #expect(text.hasPrefix("Write each food's name in Italian"))
        #expect(text.contains("Give every food a canonicalName") && !text.contains("°F"))
    }

    @Test("an answer in another language than English asks for every ingredient's canonicalName; an English one does not")
    func canonicalNameIsAskedOutsideEnglish() throws {
        func schema(_ profile: KitchenProfile?, mode: ScanMode = .fridge) throws -> String {
            let request = try request(images: [jpeg], mode: mode, profile: profile)
            let format = try #require(request["response_format"] as? [String: Any])
            return String(decoding: try JSONSerialization.data(withJSONObject: format), as: UTF8.self)
        }
        for mode in ScanMode.allCases {
            #expect(try schema(KitchenProfile(language: .nl), mode: mode).contains("canonicalName"), "\(mode)")
            #expect(try !schema(nil, mode: mode).contains("canonicalName"), "\(mode)")
        }
        let messages = try #require(try request(images: [jpeg], profile: KitchenProfile(language: .de))["messages"] as? [[String: Any]])
        let text = try #require((messages[1]["content"] as? [[String: Any]])?.last?["text"] as? String)
        #expect(text.contains("Give every ingredient a canonicalName: its plain name in English"))
    }

    @Test("a profile's constraints follow the photo as a text part, and the system prompt stays verbatim")
    func profileConstraints() throws {
        let profile = KitchenProfile(diets: [.glutenFree], allergies: [.treeNuts], servings: 2)
        let messages = try #require(try request(images: [jpeg], profile: profile)["messages"] as? [[String: Any]])
        #expect(messages[0]["content"] as? String == ScanPrompt.systemPrompt)
        let text = try #require((messages[1]["content"] as? [[String: Any]])?.last?["text"] as? String)
        #expect(text.contains(#"{"allergies":["tree nuts"],"diets":["gluten-free"],"servings":2}"#))
    }
}
