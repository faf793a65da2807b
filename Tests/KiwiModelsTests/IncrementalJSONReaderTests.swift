import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

/// What a reader hands over for `text` fed in the given fragments.
private func elements(_ fragments: [String]) throws -> [IncrementalJSONReader.Element] {
    var reader = IncrementalJSONReader()
    return try fragments.flatMap { fragment throws(JSONSyntaxError) in try reader.read(fragment) }
}

/// What a reader hands over for `bytes` cut before each of `cuts`.
private func elements(_ bytes: [UInt8], cutAt cuts: [Int]) throws -> [IncrementalJSONReader.Element] {
    var reader = IncrementalJSONReader()
    let bounds = [0] + cuts + [bytes.count]
    return try zip(bounds, bounds.dropFirst()).flatMap { start, end throws(JSONSyntaxError) in try reader.read(bytes[start..<end]) }
}

/// `text` cut after its first occurrence of `marker`, which must be there.
private func cut(_ text: String, after marker: String) throws -> [String] {
    let end = try #require(text.range(of: marker)).upperBound
    return [String(text[..<end]), String(text[end...])]
}

/// The four-recipe answer, and the elements it holds, parsed whole.
private func fourRecipeAnswer() throws -> (bytes: [UInt8], elements: [IncrementalJSONReader.Element]) {
    let data = try fixture("four-recipe-answer.json")
    let elements = members(try StrictJSONParser().parse(data))
    #expect(elements.count == 5)
    return (Array(data), elements)
}

/// An answer with one ingredient and one recipe whose texts are `name` and `summary`, written as JSON source.
private func answer(ingredient name: String = "Eggs", summary: String = "Quick.", confidence: String = "0.9") -> String {
    #"{"ingredients":[{"name":"\#(name)","category":"Dairy","confidence":\#(confidence)}],"#
        + #""recipes":[{"name":"Omelette","summary":"\#(summary)","isQuick":true,"ingredients":[{"name":"Eggs"}]}]}"#
}

@Suite("Reading a streamed answer")
struct IncrementalJSONReaderTests {
    @Test("the four-recipe answer fed whole gives its ingredients, then each recipe with its index")
    func wholeAnswer() throws {
        let answer = try fourRecipeAnswer()
        #expect(try elements(answer.bytes, cutAt: []) == answer.elements)
    }

    @Test("fed byte by byte, it gives the same elements as fed whole")
    func byteByByte() throws {
        let answer = try fourRecipeAnswer()
        #expect(try elements(answer.bytes, cutAt: Array(1..<answer.bytes.count)) == answer.elements)
    }

    @Test("cut in two at any byte, it gives the same elements as fed whole")
    func everyCut() throws {
        let answer = try fourRecipeAnswer()
        for cut in 0...answer.bytes.count {
            #expect(try elements(answer.bytes, cutAt: [cut]) == answer.elements, "cut at \(cut)")
        }
    }

    @Test("each element is handed over with the fragment that closes it, not later")
    func elementsComeAsTheyClose() throws {
        var reader = IncrementalJSONReader()
        let text = answer()
        let fragments = try cut(text, after: #""confidence":0.9}]"#)
        #expect(try reader.read(fragments[0]).count == 1)
        let recipe = try cut(fragments[1], after: #"[{"name":"Eggs"}]}"#)
        #expect(try reader.read(recipe[0]).count == 1)
        #expect(try reader.read(recipe[1]).isEmpty)
    }

    @Test("a fragment ending inside a string does not end the string")
    func cutInsideString() throws {
        #expect(try elements(try cut(answer(), after: #""name":"Eg"#)) == elements([answer()]))
    }

    @Test("a fragment ending inside an escaped quote or backslash does not end the string")
    func cutInsideEscape() throws {
        for escape in [#"\""#, #"\\"#] {
            let text = answer(summary: "a \(escape)} b")
            let parts = try cut(text, after: "a \\")
            #expect(try elements(parts) == elements([text]), "\(escape)")
            #expect(try elements(parts).count == 2)
        }
    }

    @Test("a fragment ending inside a \\u escape or between the halves of a surrogate pair gives the same characters")
    func cutInsideUnicodeEscape() throws {
        let text = answer(ingredient: #"Cr\u00e8me \ud83e\udd5a"#)
        for marker in [#"Cr\u0"#, #"Cr\u00e8"#, #"\ud83e"#, #"\ud83e\"#, #"\ud83e\ud"#] {
            let found = try elements(try cut(text, after: marker))
            guard case .ingredients(let ingredients)? = found.first else {
                Issue.record("no ingredients after a cut at \(marker)")
                continue
            }
            #expect(ingredients.serialized().contains("Crème 🥚"), "cut after \(marker)")
        }
    }

    @Test("a fragment ending inside a number or a literal gives the whole number or literal")
    func cutInsideNumberOrLiteral() throws {
        let text = answer(confidence: "0.95")
        for marker in [#""confidence":0."#, #""confidence":0.9"#, #""isQuick":tr"#] {
            #expect(try elements(try cut(text, after: marker)) == elements([text]), "cut after \(marker)")
        }
        guard case .ingredients(let ingredients)? = try elements(try cut(text, after: "0.9")).first else {
            Issue.record("no ingredients")
            return
        }
        #expect(ingredients.serialized().contains(#""confidence":0.95"#))
    }

    @Test("braces, brackets, commas and quotes inside strings do not confuse it")
    func structureInsideStrings() throws {
        let text = answer(ingredient: #"{[}]\",\"recipes\":["#, summary: #"}]} ,{\"ingredients\":[ \\"#)
        let found = try elements([text])
        #expect(found.count == 2)
        #expect(found == [try json(text)].flatMap(members))
    }

    @Test("recipes written before the ingredients are handed over as they close, then the ingredients")
    func recipesBeforeIngredients() throws {
        let text = #"{"recipes":[{"name":"A"},{"name":"B"}],"ingredients":[{"name":"Eggs"}]}"#
        #expect(
            try elements([text]) == [
                .recipe(index: 0, try json(#"{"name":"A"}"#)), .recipe(index: 1, try json(#"{"name":"B"}"#)),
                .ingredients(try json(#"[{"name":"Eggs"}]"#)),
            ]
        )
    }

    @Test("a receipt's lines are handed over one by one as they close, and its other members are not")
    func receiptLines() throws {
        let text = #"{"isReceipt":true,"currency":"EUR","lines":[{"text":"MILK"},{"text":"BREAD"}],"total":2.5}"#
        let found = try elements(try cut(text, after: #"{"text":"MILK"}"#))
        #expect(found == [.line(index: 0, try json(#"{"text":"MILK"}"#)), .line(index: 1, try json(#"{"text":"BREAD"}"#))])
    }

    @Test("an ingredients key inside a recipe is not taken for the answer's ingredients")
    func nestedIngredientsKey() throws {
        let text = #"{"recipes":[{"name":"A","ingredients":[{"name":"Eggs"}]}],"ingredients":[]}"#
        let found = try elements(try cut(text, after: #"{"name":"Eggs"}]"#))
        #expect(found == [.recipe(index: 0, try json(#"{"name":"A","ingredients":[{"name":"Eggs"}]}"#)), .ingredients(.array([]))])
    }

    @Test("a recipe that is not an object is not handed over, and the next keeps its index")
    func nonObjectRecipeKeepsIndexes() throws {
        let text = #"{"recipes":["soup",{"name":"B"}]}"#
        #expect(try elements([text]) == [.recipe(index: 1, try json(#"{"name":"B"}"#))])
    }

    @Test("an element cut off is not handed over")
    func cutOffElement() throws {
        let text = answer()
        let end = try #require(text.range(of: #""summary":"Qu"#)).upperBound
        #expect(try elements([String(text[..<end])]).count == 1)
    }

    @Test("malformed JSON inside an element is refused, and nothing of it is handed over")
    func malformedElement() throws {
        var reader = IncrementalJSONReader()
        #expect(throws: JSONSyntaxError.self) { try reader.read(#"{"ingredients":[{"name":"Eggs",}],"#) }
        #expect(throws: JSONSyntaxError.self) { try reader.read(#""recipes":[{"name":"A"}]}"#) }
    }

    @Test(
        "malformed JSON outside the elements is refused at its first bad byte",
        arguments: [
            #"{"ingredients":[]]"#, #"{"ingredients" []}"#, #"{"x":tru,"ingredients":[]}"#, #"{"x":01,"ingredients":[]}"#,
            #"{"x":"\q","ingredients":[]}"#, "{\"x\":\"a\u{01}\",\"ingredients\":[]}", #"{"ingredients":[],"ingredients":[]}"#,
            #"{"ingredients":[]}{"#, #"{"ingredients":[],}"#,
        ]
    )
    func malformedOutside(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try elements(Array(text.utf8), cutAt: Array(1..<text.utf8.count)) }
    }

    @Test("nesting deeper than the strict parser allows is refused")
    func tooDeep() {
        let text = #"{"x":"# + String(repeating: "[", count: 64)
        #expect(throws: JSONSyntaxError.self) { try elements([text]) }
    }
}

/// The elements of a parsed answer, in the order the reader hands them over for an answer written ingredients first.
private func members(_ value: JSONValue) -> [IncrementalJSONReader.Element] {
    guard case .object(let root) = value, let ingredients = root["ingredients"], case .array(let recipes)? = root["recipes"] else { return [] }
    return [.ingredients(ingredients)] + recipes.enumerated().map { .recipe(index: $0, $1) }
}
