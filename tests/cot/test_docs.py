from kernelgen.cot.docs import ChunkIndex, chunk_page, clean_markdown, load_chunks


def test_clean_markdown_strips_anchors_and_reads_npu_tags():
    text, npu = clean_markdown('<a name="ZH-CN_TOPIC_1"></a>\n<!-- npu="910b, A3" x -->\n| a<br>b | &nbsp;c |')
    assert "<a" not in text and "<br>" not in text and "&nbsp;" not in text
    assert npu == ["910b", "A3"]


def test_api_page_template_is_one_chunk_or_split_by_section(fixtures):
    raw = (fixtures / "docs/zh/api/Muls.md").read_text()
    whole = chunk_page("zh/api/Muls.md", raw, cap=4000)
    assert len(whole) == 1 and whole[0].api_page and whole[0].lang == "zh" and whole[0].title == "Muls"
    assert whole[0].npu == ["910b", "A3"]
    parts = chunk_page("zh/api/Muls.md", raw, cap=300)
    sections = {c.section.split("-")[0] for c in parts}
    assert {"function", "prototype", "parameters", "constraints", "example"} <= sections
    assert all(c.text.startswith("# Muls") for c in parts)           # every piece carries its page title


def test_guide_pages_chunk_by_heading(fixtures):
    chunks = load_chunks(fixtures / "docs", cap=2000)
    guide = [c for c in chunks if c.path == "en/guide/double_buffer.md"]
    assert [c.section for c in guide] == ["Why the pipeline stalls", "Two buffers per queue", "Choosing the tile length"]
    assert all(not c.api_page and c.lang == "en" for c in guide)


def test_bm25_finds_the_relevant_chunk(fixtures):
    idx = ChunkIndex(load_chunks(fixtures / "docs", cap=2000))
    top = idx.search("How many bytes must a DataCopy length be aligned to?", 2)
    assert top[0].path == "en/guide/data_copy.md" and top[0].section == "Alignment"
    zh = idx.search("标量类型 模板推导", 1)
    assert zh[0].path == "zh/api/Muls.md"
    same_page = idx.search("alignment", 3, page="en/guide/double_buffer.md")
    assert same_page[0].path == "en/guide/double_buffer.md"
