import KiwiDatabase
import KiwiNutrition
import Testing

/// The committed nutrition table, read once for every test.
let foodTable: FoodTable = {
    do {
        return try FoodTable(tsv: KiwiSchema.foodTable)
    } catch {
        fatalError("the committed nutrition table does not read: \(error)")
    }
}()
let matcher = FoodMatcher(foodTable)

struct FoodMatcherTests {
    @Test("the table holds the Foundation, SR Legacy and FNDDS survey foods of the extract")
    func tableCounts() {
        let counts = Dictionary(grouping: foodTable.foods, by: \.dataset).mapValues(\.count)
        #expect(counts == ["foundation": 296, "sr_legacy": 3068, "survey_fndds": 3985])
    }

    @Test("every curated synonym names a food of the table")
    func synonymsExist() {
        let missing = FoodMatcher.synonyms.filter { matcher.food($0.value) == nil }.map(\.key)
        #expect(missing.isEmpty)
    }

    @Test("a synonym's key matches its food with confidence 1, whatever the name's case, plural or preparation")
    func synonymMatch() {
        let match = matcher.match("2 Chopped Onions")
        #expect(match?.food.description == "Onions, raw")
        #expect(match?.confidence == 1)
    }

    @Test("a name without a synonym matches the raw generic food sharing its words, below confidence 1")
    func overlapMatch() throws {
        let match = try #require(matcher.match("red lentils"))
        #expect(match.food.description == "Lentils, pink or red, raw")
        #expect(match.confidence < 1)
        #expect(match.confidence >= FoodMatcher.threshold)
    }

    @Test("a name sharing too little with any food is unmatched")
    func unmatched() {
        #expect(matcher.match("dragon's breath sauce") == nil)
    }

    @Test("matching is deterministic: the same name gets the same food every time")
    func deterministic() {
        let names = ["chicken", "cheese", "beans", "apple", "cherry tomatoes", "pork chop", "noodles"]
        #expect(names.map { matcher.match($0) } == names.map { FoodMatcher(foodTable).match($0) })
    }
}
