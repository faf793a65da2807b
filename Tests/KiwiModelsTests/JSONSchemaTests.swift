import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

@Suite("Structured Outputs schema")
struct JSONSchemaTests {
    @Test(
        "the model's schema and the model-answer validator agree on every rule case but string lengths and rules across members, which only the validator checks",
        arguments: ruleCases.filter { !$0.path.hasSuffix(".id") }
    )
    func schemaAgreesWithValidator(_ rule: RuleCase) throws {
        let document = try validAnswer(setting: rule.path, to: rule.value).withoutIDs.writtenNow
        let validatorAccepts = ScanResponseContract.modelAnswer.violations(of: document).isEmpty
        let schemaAccepts = try JSONSchemaEvaluator().accepts(document, schema: ScanResponseContract.jsonSchema(answeringIn: .en))
        let isStringLengthRule = rule.rule.hasSuffix("characters") || rule.rule.hasSuffix("not empty")
        // A rule across members (one step detail per step) is told to the model and checked by the validator.
        let isCrossFieldRule = rule.rule.hasPrefix("across members")
        #expect(schemaAccepts == (validatorAccepts || isStringLengthRule || isCrossFieldRule))
        #expect(validatorAccepts == (rule.violationAt == nil))
    }

    @Test("the schema uses only keywords OpenAI's Structured Outputs documents as supported")
    func schemaUsesSupportedKeywordsOnly() {
        let supported: Set<String> = [
            "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "description", "pattern", "format",
            "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
        ]
        var used: Set<String> = []
        func visit(_ schema: JSONValue) {
            guard case .object(let object) = schema else { return }
            used.formUnion(object.keys)
            if case .object(let properties) = object["properties"] {
                for member in properties.members { visit(member.value) }
            }
            if let items = object["items"] { visit(items) }
        }
        visit(ScanResponseContract.jsonSchema(answeringIn: .en))
        #expect(used.subtracting(supported).isEmpty, "unsupported: \(used.subtracting(supported).sorted())")
    }

    @Test("the schema and the validator agree on the whole fixtures", arguments: ["valid-scan-response.json", "empty-scan-response.json"])
    func schemaAcceptsFixtures(_ name: String) throws {
        let document = try StrictJSONParser().parse(try fixture(name)).withoutIDs.writtenNow
        #expect(try JSONSchemaEvaluator().accepts(document, schema: ScanResponseContract.jsonSchema(answeringIn: .en)))
        #expect(ScanResponseContract.modelAnswer.violations(of: document).isEmpty)
    }

    @Test("the model is not asked for ids: the server assigns them")
    func schemaHasNoIDs() {
        #expect(!ScanResponseContract.jsonSchema(answeringIn: .en).serialized().contains(#""id""#))
    }

    @Test("every object is closed and lists every property as required", arguments: [("kiwi_scan", 5), ("kiwi_dish", 5)])
    func everyObjectIsStrict(_ name: String, _ count: Int) throws {
        var objects = 0
        func visit(_ schema: JSONValue) {
            switch schema {
            case .object(let object):
                if object["properties"] != nil {
                    objects += 1
                    #expect(object["additionalProperties"] == .bool(false))
                    if case .object(let properties) = object["properties"] {
                        #expect(object["required"] == .array(properties.keys.map(JSONValue.string)))
                    }
                }
                for (_, member) in object.members { visit(member) }
            case .array(let elements):
                elements.forEach(visit)
            default:
                break
            }
        }
        visit(name == "kiwi_scan" ? ScanResponseContract.jsonSchema(answeringIn: .en) : DishAnswerContract.jsonSchema(answeringIn: .en))
        #expect(objects == count)
    }

    @Test("nullable fields are a type union with null")
    func nullableIsTypeUnion() throws {
        let recipe = try #require(
            member(ScanResponseContract.jsonSchema(answeringIn: .en), "properties", "recipes", "items", "properties", "makeItFasterTip")
        )
        #expect(recipe == .object(JSONObject(["type": .array(["string", "null"]), "description": "0 to 300 characters"])))
    }

    @Test("the schema is compact JSON that the strict parser reads back unchanged")
    func schemaSerialises() throws {
        let text = ScanResponseContract.jsonSchema(answeringIn: .en).serialized()
        #expect(try StrictJSONParser().parse(text) == ScanResponseContract.jsonSchema(answeringIn: .en))
    }

    private func member(_ value: JSONValue, _ path: String...) -> JSONValue? {
        path.reduce(Optional(value)) { current, key in
            if case .object(let object) = current { object[key] } else { nil }
        }
    }
}
