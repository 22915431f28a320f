"""Canonical JSON: ECMAScript number printing, RFC 8785 string escapes, UTF-16 key order."""

import json
import unittest

from proofline.canonical import canonicalize, format_number, loads


class NumberTest(unittest.TestCase):
    def test_numbers_print_as_ecmascript_does(self):
        cases = {
            "87.0": "87", "135.0": "135", "4.50": "4.5", "2e-3": "0.002", "1.0": "1", "-0.0": "0",
            "1e-6": "0.000001", "0.000001": "0.000001", "1e-7": "1e-7", "1.5e-7": "1.5e-7",
            "1e-9": "1e-9", "123e-20": "1.23e-18", "1e20": "100000000000000000000",
            "1e21": "1e+21", "1E30": "1e+30", "333333333.33333329": "333333333.3333333",
            "9007199254740992": "9007199254740992", "-9007199254740992": "-9007199254740992",
            "9007199254740993": "9007199254740992", "123456789012345678901": "123456789012345680000",
            "5e-324": "5e-324", "1.7976931348623157e308": "1.7976931348623157e+308",
            "-1.5": "-1.5", "0.1": "0.1", "1e-09": "1e-9", "0": "0", "-0": "0",
        }
        for text, canonical in cases.items():
            with self.subTest(text):
                self.assertEqual(canonicalize(json.loads(text)), canonical)

    def test_computed_doubles_print_shortest(self):
        self.assertEqual(format_number(0.1 + 0.2), "0.30000000000000004")
        self.assertEqual(format_number(2**53 + 2), "9007199254740994")
        self.assertEqual(format_number(-(10**21)), "-1e+21")

    def test_the_callers_decimal_context_changes_nothing(self):
        import decimal
        expected = {0.1 + 0.2: "0.30000000000000004", 5e-324: "5e-324", 1e21: "1e+21",
                    1.7976931348623157e308: "1.7976931348623157e+308", 123.456: "123.456"}
        tight = decimal.Context(prec=9, Emin=-10, Emax=10, traps=[decimal.Inexact, decimal.Rounded])
        for context in (tight, decimal.BasicContext):
            with decimal.localcontext(context):
                for value, canonical in expected.items():
                    with self.subTest(value=value, prec=context.prec):
                        self.assertEqual(format_number(value), canonical)

    def test_values_without_a_form_are_refused(self):
        for value in (float("nan"), float("inf"), float("-inf"), 10**400):
            with self.subTest(value=value), self.assertRaises(ValueError):
                canonicalize(value)

    def test_booleans_are_not_numbers(self):
        self.assertEqual(canonicalize([True, False, None, 1]), "[true,false,null,1]")


class StringTest(unittest.TestCase):
    def test_hashes_md_escape_vector(self):
        parsed = json.loads(r'''"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/"''')
        self.assertEqual(canonicalize(parsed), r'''"€$\u000f\nA'B\"\\\\\"/"''')

    def test_only_quote_backslash_and_controls_are_escaped(self):
        self.assertEqual(canonicalize("\b\t\n\f\r\x00\x1f\x7f/é😀"), '"\\b\\t\\n\\f\\r\\u0000\\u001f\x7f/é😀"')

    def test_lone_surrogate_is_refused(self):
        with self.assertRaises(ValueError):
            canonicalize(json.loads('"\\ud800"'))
        with self.assertRaises(ValueError):
            canonicalize({"\udfff": 1})


class ObjectTest(unittest.TestCase):
    def test_keys_sort_by_utf16_code_units(self):
        # U+1F600 is D83D DE00 in UTF-16, so it sorts before U+FB33 though its code point is larger.
        value = {"\ufb33": 1, "😀": 2, "a": 3, "\u00e9": 4, "B": 5, "": 6}
        self.assertEqual(canonicalize(value), '{"":6,"B":5,"a":3,"é":4,"😀":2,"דּ":1}')

    def test_rfc8785_sorting_example(self):
        value = json.loads('{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",'
                           '"1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",'
                           '"\\u00f6":"Latin Small Letter O With Diaeresis"}')
        order = [key for key in json.loads(canonicalize(value))]
        self.assertEqual(order, ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"])

    def test_nested_structures_have_no_whitespace(self):
        self.assertEqual(canonicalize({"b": [1.0, {"d": 4.5, "c": None}], "a": "x"}), '{"a":"x","b":[1,{"c":null,"d":4.5}]}')

    def test_non_json_values_are_refused(self):
        for value in ({1: "a"}, {"a": object()}, b"bytes"):
            with self.subTest(value=value), self.assertRaises(TypeError):
                canonicalize(value)


class StrictReadingTest(unittest.TestCase):
    def test_duplicate_keys_and_constants_are_refused(self):
        for text in ('{"a":1,"a":2}', '[NaN]', '{"x": Infinity}'):
            with self.subTest(text), self.assertRaises(ValueError):
                loads(text)

    def test_integers_stay_integers(self):
        self.assertEqual(loads('{"a": 1, "b": 1.0}'), {"a": 1, "b": 1.0})
        self.assertIsInstance(loads("87"), int)
        self.assertIsInstance(loads("87.0"), float)


if __name__ == "__main__":
    unittest.main()
