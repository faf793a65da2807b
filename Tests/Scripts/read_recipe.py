"""Reads a recipe page the way Mealie and Tandoor import one: with recipe-scrapers, from its schema.org JSON-LD.

Usage: read_recipe.py URL < page.html
Prints the recipe as JSON: title, total_time (minutes), ingredients and instructions (lists of lines).
Run by Tests/KiwiServicesTests/SharePageEndToEndTests.swift with the virtualenv deploy/local/test.sh makes.
"""
import json
import sys

from recipe_scrapers import scrape_html

scraper = scrape_html(sys.stdin.read(), org_url=sys.argv[1], supported_only=False)
print(json.dumps({
    "title": scraper.title(),
    "total_time": scraper.total_time(),
    "ingredients": scraper.ingredients(),
    "instructions": scraper.instructions_list(),
}))
