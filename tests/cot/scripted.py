"""A scripted stand-in for the teacher model (the model boundary), for the fast unit tests: it answers each
prompt kind in the shape a capable teacher would, and counts what it was asked. The end-to-end test uses the
real SmolLM2 model instead."""
from __future__ import annotations

import json
import re

from kernelgen.generate.engine import Completion, split_reasoning


class ScriptedEngine:
    name = "scripted"
    model_id = "scripted"

    def __init__(self, tiling: dict | None = None):
        self.asked: list[str] = []
        self.tiling = tiling or {}

    def _answer(self, user: str) -> str:
        if "write up to" in user and "questions" in user:
            title = re.search(r'documentation \("([^"]+)"\)', user).group(1)
            return f"1. What does {title} do?\n2. Which constraints apply to {title}?"
        if "<request>" in user:
            return "<request>Write an AscendC kernel that computes z = x + alpha * y on float tensors.</request>"
        if "expect the host-side tiling function to reject" in user:
            return ("<think>The host checks the dtype before anything else.</think>"
                    "The dtype check rejects this case: only float32 is supported.")
        if "JSON summary" in user:
            case = json.loads(re.search(r"### Test case\n(.*)\n", user).group(1))
            tiling = self.tiling.get(json.dumps(case, sort_keys=True), {"blockDim": 1})
            return "<think>The host splits the elements across cores.</think>\n" + json.dumps(tiling)
        if "fails to compile" in user:
            return "<think>The scalar type must match the tensor type.</think>Cast the scalar.\n```cpp\nMuls(y, y, (half)2, 1024);\n```"
        if "wrong results" in user:
            return "<think>The kernel scales the wrong input.</think>```cpp\n// fixed\n```"
        if "thought process" in user and "Question:" in user:
            return "<think>I reason from the question about Ascend C.</think><answer>It works as documented.</answer>"
        return "<think>From the request I derive the tiling and the pipeline.</think>"

    def generate(self, prompts, params):
        for p in prompts:
            user = p.messages[-1]["content"]
            self.asked.append(p.key)
            text = self._answer(user)
            reasoning, content = split_reasoning(text)
            for s in p.samples:
                yield Completion(key=p.key, sample=s, text=text, content=content, reasoning=reasoning,
                                 prompt_tokens=len(user) // 4, completion_tokens=len(text) // 4,
                                 finish_reason="stop", seconds=0.0)

    def close(self) -> None:
        pass
