"""Reads a recipe page the way Mealie and Tandoor import one: with recipe-scrapers, from its schema.org JSON-LD.

Usage: read_recipe.py URL < page.html
Prints the recipe as JSON: title, total_time (minutes), yields ("4 servings", null for a recipe without servings),
ingredients and instructions (lists of lines) and nutrients (schema.org NutritionInformation's members as text, {}
without nutrition).
Run by Tests/KiwiServicesTests/SharePageEndToEndTests.swift with the virtualenv deploy/local/test.sh makes.
"""
import json
import sys

from recipe_scrapers import scrape_html
from recipe_scrapers._exceptions import SchemaOrgException

scraper = scrape_html(sys.stdin.read(), org_url=sys.argv[1], supported_only=False)
try:
    yields = scraper.yields()
except SchemaOrgException:
    yields = None
print(json.dumps({
    "title": scraper.title(),
    "total_time": scraper.total_time(),
    "yields": yields,
    "ingredients": scraper.ingredients(),
    "instructions": scraper.instructions_list(),
    "nutrients": scraper.nutrients(),
}))
