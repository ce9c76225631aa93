"""Chat templates with ``{% generation %}`` markers, needed for trl's assistant-only loss.

trl patches the templates of the families it knows (Qwen2.5/3, Llama 3, Gemma, Phi-3, ...). SmolLM2 and other
plain ChatML templates are not on its list, so we install an equivalent markered template that renders the
same text as the stock one (tests assert that byte for byte).
"""
from __future__ import annotations

from typing import Any

_SMOLLM_DEFAULT_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


def _chatml(default_system: str | None) -> str:
    first = ""
    if default_system:
        first = ("{% if loop.first and messages[0]['role'] != 'system' %}"
                 "{{ '<|im_start|>system\\n" + default_system + "<|im_end|>\\n' }}{% endif %}")
    return (
        "{% for message in messages %}" + first +
        "{% if message['role'] == 'assistant' %}{{ '<|im_start|>assistant\\n' }}"
        "{% generation %}{{ message['content'] + '<|im_end|>' }}{% endgeneration %}{{ '\\n' }}"
        "{% else %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endif %}"
        "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
    )


SMOLLM2_TRAINING_TEMPLATE = _chatml(_SMOLLM_DEFAULT_SYSTEM)
CHATML_TRAINING_TEMPLATE = _chatml(None)


def training_template(stock: str | None) -> str | None:
    """A markered replacement for `stock`, or None when trl handles it itself (or it is already markered)."""
    if not stock or "{% generation %}" in stock:
        return None
    if "<|im_start|>" not in stock or "enable_thinking" in stock or "tools" in stock:
        return None   # Qwen-family templates: trl swaps in its own training template
    return SMOLLM2_TRAINING_TEMPLATE if _SMOLLM_DEFAULT_SYSTEM in stock else CHATML_TRAINING_TEMPLATE


def install_training_template(tokenizer: Any) -> bool:
    """Set a markered template on `tokenizer` when one is needed; True when it changed."""
    template = training_template(getattr(tokenizer, "chat_template", None))
    if template is None:
        return False
    tokenizer.chat_template = template
    return True
