from kernelgen.cot.text import (
    detect_language,
    extract_json_object,
    extract_tag,
    retrieval_tokens,
    split_questions,
)


def test_retrieval_tokens_split_identifiers_and_cjk():
    toks = retrieval_tokens("DataCopy 搬运数据 to UB")
    assert "datacopy" in toks and "data" in toks and "copy" in toks
    assert "搬运" in toks and "数据" in toks
    assert "ub" in toks


def test_extract_tag_and_unclosed():
    assert extract_tag("x <request>do it</request> y", "request") == "do it"
    assert extract_tag("<answer>cut short", "answer") == "cut short"
    assert extract_tag("nothing", "answer") is None


def test_extract_json_object_takes_last_top_level():
    assert extract_json_object('a {"x": {"y": 1}} b {"z": 2} {broken') == {"z": 2}
    assert extract_json_object('```json\n{"blockDim": 8, "t": {"k": 1}}\n```') == {"blockDim": 8, "t": {"k": 1}}
    assert extract_json_object("no json") is None


def test_split_questions_numbered_and_fallback():
    qs = split_questions("1. What does Muls do?\n2) Which alignment does DataCopy need?\nnoise", 5)
    assert qs == ["What does Muls do?", "Which alignment does DataCopy need?"]
    assert split_questions("Explain the queue depth of InitBuffer", 3) == ["Explain the queue depth of InitBuffer"]
    assert split_questions("1. What is X?\n2. What is X?", 3) == ["What is X?"]


def test_language_id_is_offline_and_separates_zh_en_fr():
    assert detect_language("标量的类型必须与张量元素类型相同，否则模板推导失败。")[0] == "zh"
    assert detect_language("The scalar must have the same type as the tensor elements.")[0] == "en"
    assert detect_language("La somme des angles d'un triangle vaut cent quatre-vingts degrés.")[0] == "fr"
