/* SPDX-License-Identifier: MIT */
/* tables.c - what segc's tables say, for the build and the tests.
 *
 *   tables schema    the JSON Schema of the spec format (schema/segc.schema.json)
 *   tables keys      every key of every map: path, key, kind, values, flags, merge
 *   tables options   every option of every command: command, option, value
 *
 * The schema is generated from the structure table (spec.def), the field
 * table (fields.def) and the flag table (SEGC_FLAGS), the three tables
 * resolve.c checks a spec by; only what a JSON Schema needs besides them
 * (the words of an expression, what an identifier is) is written here.
 * The options are main.c's own table: this file compiles main.c. */
#include "segc.h"

int segc_main(int argc, char **argv);
#define main segc_main
#include "../main.c"
#undef main

#include <ctype.h>

/* ---- the schema ------------------------------------------------------------ */

static const char identifier_doc[] =
    "A C identifier: a letter or underscore, then letters, digits or underscores. It becomes part of generated "
    "symbol names.";
static const char expr_doc[] =
    "A non-negative number, or an expression evaluated in unsigned 64-bit arithmetic. Integers: decimal, 0x, 0b, "
    "0o, with optional `_` separators. Units: B, KiB, MiB, GiB, TiB, and `pages` (multiples of board.page_size). "
    "Operators: + - * / % << >> & | ^ ~ and parentheses. Functions: min, max, align_up, align_down. Names: "
    "constants; `size` and `base` of the current segment; `<segment>.size`, `<segment>.base`, `<segment>.end` "
    "(base + size); `bar.<name>.size`. Strings must read as an expression (the schema checks the words and "
    "operators; a number followed by a word that is not a unit, such as 256MB, is rejected). Overflow, underflow, "
    "division by zero, unknown names, cycles and ambiguous units such as MB are errors.";
/* An expression as words and operators: prefixes (- + ~ ( and a call's
 * name and parenthesis), an operand (a number with an optional unit, an
 * empty call, a name), suffixes (closing parentheses, units), then more of
 * the same after each binary operator or a call's comma. */
#define EXPR_NAME "[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*"
#define EXPR_UNIT "(?:B|KiB|MiB|GiB|TiB|pages)(?![A-Za-z0-9_])"
#define EXPR_TERM                                                                                                 \
    "(?:(?:[-+~(]|" EXPR_NAME "\\s*\\()\\s*)*(?:(?:0x[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0b[01]+(?:_[01]+)*|"             \
    "0o[0-7]+(?:_[0-7]+)*|[0-9]+(?:_[0-9]+)*)(?:" EXPR_UNIT ")?(?![A-Za-z0-9_.])|" EXPR_NAME "\\s*\\(\\s*\\)|"         \
    EXPR_NAME ")(?:\\s*(?:\\)|" EXPR_UNIT "))*"
static const char expr_pattern[] = "^\\s*" EXPR_TERM "(?:\\s*(?:<<|>>|[-+*/%&|^,])\\s*" EXPR_TERM ")*\\s*$";

static const char *def_name(Arena *a, SpecMap m)
{
    char *s = arena_strdup(a, spec_maps[m].id);
    for (char *p = s; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return s;
}

static void ref(JsonW *w, Arena *a, const char *key, const char *def)
{
    json_kstr(w, key, arena_printf(a, "#/$defs/%s", def));
}

static const char *key_doc(const KeyInfo *k)
{
    return k->doc ? k->doc : k->target != MAP_NONE ? spec_maps[k->target].doc : NULL;
}

/* Whether map `m` is merged key by key with a base's (the spec, and the
 * maps its MERGE_KEYS and MERGE_BY_NAME keys lead to), so that a variant
 * may leave out what it requires: the key items are matched by aside. */
static bool merged(SpecMap m)
{
    if (m == MAP_SPEC)
        return true;
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->target == m && ((k->merge == MERGE_KEYS && k->kind == VK_MAP) || k->merge == MERGE_BY_NAME))
            return merged(k->map);
    }
    return false;
}

static bool relaxed(const KeyInfo *k)
{
    return k->flags & FF_REQUIRED && k->merge != MERGE_MATCH && k->merge != MERGE_FILE && merged(k->map);
}

/* The schema of key `k`'s value. */
static void value_schema(JsonW *w, Arena *a, const KeyInfo *k)
{
    json_obj_begin(w);
    const char *doc = key_doc(k);
    switch (k->kind) {
    case VK_EXPR: ref(w, a, "$ref", "expr"); break;
    case VK_IDENT:
    case VK_SEGMENT:
    case VK_BANK:
    case VK_BAR: ref(w, a, "$ref", "identifier"); break;
    case VK_MAP: ref(w, a, "$ref", def_name(a, k->target)), doc = k->doc; break;
    default: break;
    }
    if (doc)
        json_kstr(w, "description", doc);
    switch (k->kind) {
    case VK_FORMAT: json_kuint(w, "const", SEGC_FORMAT_VERSION); break;
    case VK_PATH:
        json_kstr(w, "type", "string");
        json_kuint(w, "minLength", 1);
        break;
    case VK_ENUM:
        json_kstr(w, "type", "string");
        json_karr(w, "enum");
        for (size_t i = 0; i < k->nvalues; i++)
            json_str(w, k->values[i]);
        json_arr_end(w);
        break;
    case VK_VERSION: /* "1.3" or 1.3; "2" or 2 is 2.0 */
        json_karr(w, "oneOf");
        json_obj_begin(w);
        json_kstr(w, "type", "string");
        json_karr(w, "enum");
        for (size_t i = 0; i < k->nvalues; i++)
            json_str(w, k->values[i]);
        for (size_t i = 0; i < k->nvalues; i++)
            if (!strcmp(k->values[i] + 1, ".0"))
                json_str(w, arena_strndup(a, k->values[i], 1));
        json_arr_end(w);
        json_obj_end(w);
        json_obj_begin(w);
        json_kstr(w, "type", "number");
        json_karr(w, "enum");
        for (size_t i = 0; i < k->nvalues; i++)
            json_raw(w, k->values[i]);
        json_arr_end(w);
        json_obj_end(w);
        json_arr_end(w);
        break;
    case VK_BOOL: json_kstr(w, "type", "boolean"); break;
    case VK_FLAGS:
        json_kstr(w, "type", "array");
        json_kbool(w, "uniqueItems", true);
        json_kobj(w, "items");
        ref(w, a, "$ref", "flag");
        json_obj_end(w);
        break;
    case VK_WAIVERS:
        json_kstr(w, "type", "object");
        json_kobj(w, "propertyNames");
        json_kstr(w, "description", "A segc rule name, in kebab-case.");
        json_kstr(w, "type", "string");
        json_kstr(w, "pattern", "^[a-z0-9]+(-[a-z0-9]+)*$");
        json_obj_end(w);
        json_kobj(w, "additionalProperties");
        json_kstr(w, "description", "Why the rule does not apply to this segment. Must not be empty.");
        json_kstr(w, "type", "string");
        json_kuint(w, "minLength", 1);
        json_obj_end(w);
        break;
    case VK_CONSTANTS:
    case VK_MAPS:
        json_kstr(w, "type", "object");
        json_kobj(w, "propertyNames");
        ref(w, a, "$ref", "identifier");
        json_obj_end(w);
        json_kobj(w, "additionalProperties");
        ref(w, a, "$ref", k->kind == VK_MAPS ? def_name(a, k->target) : "expr");
        json_obj_end(w);
        break;
    case VK_SEGMENTS: /* names; a repeat is a rule's (alloc-repeated) */
        json_kstr(w, "type", "array");
        json_kobj(w, "items");
        ref(w, a, "$ref", "identifier");
        json_obj_end(w);
        break;
    case VK_HINTS: /* a name, or the map whose first key holds it */
        json_kstr(w, "type", "array");
        json_kobj(w, "items");
        json_karr(w, "oneOf");
        json_obj_begin(w);
        ref(w, a, "$ref", "identifier");
        json_obj_end(w);
        json_obj_begin(w);
        ref(w, a, "$ref", def_name(a, k->target));
        json_obj_end(w);
        json_arr_end(w);
        json_obj_end(w);
        break;
    case VK_SEQ:
        json_kstr(w, "type", "array");
        json_kuint(w, "minItems", 1);
        if (spec_maps[k->target].max)
            json_kuint(w, "maxItems", spec_maps[k->target].max);
        json_kobj(w, "items");
        ref(w, a, "$ref", def_name(a, k->target));
        json_obj_end(w);
        break;
    default: break;
    }
    json_obj_end(w);
}

/* Whether key `k` of map `m` must be written in form `form` (see below). */
static bool needed(const KeyInfo *k, unsigned form)
{
    return (k->flags & FF_REQUIRED && !relaxed(k)) || (k->flags & FF_FORM && k->flags & form);
}

/* The keys of map `m` a value in form `form` (FF_BAR, FF_ADDRESS; 0: the
 * map has no forms) may have and must have.  The keys a variant may leave
 * out are required by the spec's "else" instead, and an entry that says
 * `delete: true` needs only the key items are matched by. */
static void object_body(JsonW *w, Arena *a, SpecMap m, unsigned form)
{
    const KeyInfo *del = NULL;
    bool any = false;
    for (size_t i = 0; i < spec_key_count; i++)
        del = spec_keys[i].map == m && spec_keys[i].merge == MERGE_DELETE ? &spec_keys[i] : del;
    json_kstr(w, "type", "object");
    json_kbool(w, "additionalProperties", false);
    for (size_t i = 0; del && i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->map != m || !needed(k, form) || k->merge == MERGE_MATCH)
            continue;
        if (!any) {
            json_kobj(w, "if");
            json_kobj(w, "properties");
            json_kobj(w, del->key);
            json_kbool(w, "const", true);
            json_obj_end(w);
            json_obj_end(w);
            json_karr(w, "required");
            json_str(w, del->key);
            json_arr_end(w);
            json_obj_end(w);
            json_kbool(w, "then", true);
            json_kobj(w, "else");
            json_karr(w, "required");
        }
        any = true;
        json_str(w, k->key);
    }
    if (any) {
        json_arr_end(w);
        json_kobj(w, "properties"); /* what ajv's strict mode asks of a "required" */
        for (size_t i = 0; i < spec_key_count; i++)
            if (spec_keys[i].map == m && needed(&spec_keys[i], form) && spec_keys[i].merge != MERGE_MATCH)
                json_kbool(w, spec_keys[i].key, true);
        json_obj_end(w);
        json_obj_end(w);
    }
    any = false;
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->map != m || !needed(k, form) || (del && k->merge != MERGE_MATCH))
            continue;
        if (!any)
            json_karr(w, "required");
        any = true;
        json_str(w, k->key);
    }
    if (any)
        json_arr_end(w);
    json_kobj(w, "properties");
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->map != m || (form && k->flags & (FF_BAR | FF_ADDRESS) & ~form))
            continue;
        json_key(w, k->key);
        value_schema(w, a, k);
    }
    json_obj_end(w);
}

static void map_schema(JsonW *w, Arena *a, SpecMap m)
{
    unsigned forms = 0;
    for (size_t i = 0; i < spec_key_count; i++)
        forms |= spec_keys[i].map == m && spec_keys[i].flags & FF_FORM ? spec_keys[i].flags & (FF_BAR | FF_ADDRESS) : 0;
    json_kstr(w, "title", spec_maps[m].title);
    json_kstr(w, "description", spec_maps[m].doc);
    if (!forms) {
        object_body(w, a, m, 0);
        return;
    }
    json_karr(w, "oneOf");
    for (unsigned f = FF_BAR; f <= FF_ADDRESS; f <<= 1) {
        json_obj_begin(w);
        object_body(w, a, m, f);
        json_obj_end(w);
    }
    json_arr_end(w);
}

/* What a file without `extends:` must have besides the rest: the keys of
 * the maps merged key by key that a variant may leave out. */
static bool else_schema(JsonW *w, SpecMap m, bool write)
{
    bool any = false;
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->map != m || !relaxed(k))
            continue;
        if (write && !any)
            json_karr(w, "required");
        any = true;
        if (write)
            json_str(w, k->key);
    }
    if (!write || !any)
        return any;
    json_arr_end(w);
    json_kobj(w, "properties");
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        bool sub = k->map == m && k->target != MAP_NONE && merged(k->target) && else_schema(w, k->target, false);
        if (k->map != m || !(relaxed(k) || sub))
            continue;
        json_key(w, k->key);
        if (!sub) {
            json_bool(w, true);
            continue;
        }
        json_obj_begin(w);
        if (k->kind == VK_SEQ) {
            json_kstr(w, "type", "array");
            json_kobj(w, "items");
        }
        json_kstr(w, "type", "object");
        else_schema(w, k->target, true);
        if (k->kind == VK_SEQ)
            json_obj_end(w);
        json_obj_end(w);
    }
    json_obj_end(w);
    return true;
}

static void schema(Buf *b)
{
    Arena *a = arena_new();
    JsonW jw, *w = &jw;
    json_init(w, b);
    json_obj_begin(w);
    json_kstr(w, "$schema", "https://json-schema.org/draft/2020-12/schema");
    json_kstr(w, "$id", arena_printf(a, "urn:segc:schema:input-format:%d", SEGC_FORMAT_VERSION));
    json_kstr(w, "title", spec_maps[MAP_SPEC].title);
    json_kstr(w, "description", spec_maps[MAP_SPEC].doc);
    object_body(w, a, MAP_SPEC, 0);
    json_kobj(w, "if");
    json_kobj(w, "properties");
    json_kbool(w, "extends", true);
    json_obj_end(w);
    json_karr(w, "required");
    json_str(w, "extends");
    json_arr_end(w);
    json_obj_end(w);
    json_kbool(w, "then", true);
    json_kobj(w, "else");
    else_schema(w, MAP_SPEC, true);
    json_obj_end(w);

    json_kobj(w, "$defs");
    json_kobj(w, "identifier");
    json_kstr(w, "title", "C identifier");
    json_kstr(w, "description", identifier_doc);
    json_kstr(w, "type", "string");
    json_kstr(w, "pattern", "^[A-Za-z_][A-Za-z0-9_]*$");
    json_obj_end(w);
    json_kobj(w, "expr");
    json_kstr(w, "title", "Expression");
    json_kstr(w, "description", expr_doc);
    json_karr(w, "oneOf");
    json_obj_begin(w);
    json_kstr(w, "type", "integer");
    json_kuint(w, "minimum", 0);
    json_obj_end(w);
    json_obj_begin(w);
    json_kstr(w, "type", "string");
    json_kuint(w, "minLength", 1);
    json_kstr(w, "pattern", expr_pattern);
    json_obj_end(w);
    json_arr_end(w);
    json_obj_end(w);
    for (int m = MAP_SPEC + 1; m < MAP_COUNT; m++) {
        json_kobj(w, def_name(a, (SpecMap)m));
        map_schema(w, a, (SpecMap)m);
        json_obj_end(w);
    }
    json_kobj(w, "flag");
    json_kstr(w, "title", "Segment flag");
    json_kstr(w, "description",
              "One DXGK_SEGMENTFLAGS bit in snake_case. Each value carries its own description (an editor shows the "
              "one under the cursor).");
    json_kstr(w, "type", "string");
    json_karr(w, "anyOf");
    for (size_t i = 0; i < flag_count; i++) {
        const FlagInfo *f = &flag_table[i];
        if (f->derived)
            continue;
        json_obj_begin(w);
        json_kstr(w, "const", f->name);
        json_kstr(w, "description",
                  f->min_wddm > 0x10 ? arena_printf(a, "%s WDDM %u.%u or later.", f->doc, f->min_wddm >> 4,
                                                    f->min_wddm & 15)
                                     : f->doc);
        json_obj_end(w);
    }
    json_arr_end(w);
    json_obj_end(w);
    json_obj_end(w);
    json_obj_end(w);
    arena_free(a);
}

/* ---- the keys and the options ------------------------------------------------- */

static const char *const kind_names[] = {
    [VK_EXPR] = "expr", [VK_FORMAT] = "format", [VK_PATH] = "path", [VK_IDENT] = "ident", [VK_ENUM] = "enum",
    [VK_VERSION] = "version", [VK_BOOL] = "bool", [VK_SEGMENT] = "segment", [VK_BAR] = "bar", [VK_FLAGS] = "flags",
    [VK_WAIVERS] = "waivers", [VK_CONSTANTS] = "constants", [VK_MAP] = "map", [VK_MAPS] = "maps", [VK_SEQ] = "seq",
    [VK_SEGMENTS] = "segments", [VK_HINTS] = "hints", [VK_BANK] = "bank",
};
static const char *const merge_names[] = {
    [MERGE_REPLACE] = "replace", [MERGE_KEYS] = "keys", [MERGE_BY_NAME] = "by-name", [MERGE_MATCH] = "match",
    [MERGE_DELETE] = "delete", [MERGE_FILE] = "file",
};

/* Each key of map `m`, written at `path`, then the keys of the maps its
 * keys lead to: PATH<TAB>KEY<TAB>KIND<TAB>VALUES<TAB>FLAGS<TAB>MERGE, the
 * values being the words the key takes (for `flags`, the flags a spec may
 * write). */
static void keys(SpecMap m, const char *path)
{
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->map != m)
            continue;
        printf("%s\t%s\t%s\t", *path ? path : "-", k->key, kind_names[k->kind]);
        for (size_t v = 0; v < k->nvalues; v++)
            printf("%s%s", v ? " " : "", k->values[v]);
        for (size_t f = 0, n = 0; k->kind == VK_FLAGS && f < flag_count; f++)
            if (!flag_table[f].derived)
                printf("%s%s", n++ ? " " : "", flag_table[f].name);
        printf("\t%s%s%s\t%s\n", k->flags & FF_REQUIRED ? "required " : "", k->flags & FF_VARIANT ? "variant " : "",
               k->field >= 0 ? "field" : "", merge_names[k->merge]);
    }
    for (size_t i = 0; i < spec_key_count; i++) {
        const KeyInfo *k = &spec_keys[i];
        if (k->map != m || k->target == MAP_NONE)
            continue;
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s%s", path, *path ? " " : "", k->key,
                 k->kind == VK_SEQ || k->kind == VK_HINTS ? " #" : k->kind == VK_MAPS ? " *" : "");
        keys(k->target, sub);
    }
}

/* COMMAND<TAB>OPTION<TAB>VALUE ("-" for none) for each option each command
 * that parse_options reads takes. */
static void print_options(void)
{
    for (size_t c = 0; c < countof(commands); c++)
        for (size_t i = 0; commands[c].run && i < countof(options); i++)
            if (!options[i].opts || commands[c].opts & options[i].opts)
                printf("%s\t%s\t%s\n", commands[c].name, options[i].flag, options[i].what ? options[i].what : "-");
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "schema")) {
        Buf b = {0};
        schema(&b);
        fwrite(b.p, 1, b.len, stdout);
        buf_free(&b);
    } else if (argc == 2 && !strcmp(argv[1], "keys")) {
        keys(MAP_SPEC, "");
    } else if (argc == 2 && !strcmp(argv[1], "options")) {
        print_options();
    } else {
        fputs("usage: tables schema|keys|options\n", stderr);
        return 2;
    }
    return fflush(stdout) ? 1 : 0;
}
