"""GLUE fine-tuning in the style of transformers' TF examples, after a refactor that moved compile out."""
from dataclasses import dataclass, field

import tensorflow as tf
from datasets import load_dataset
from transformers import AutoTokenizer, HfArgumentParser, TFAutoModelForSequenceClassification, TFTrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="bert-base-cased")
    task_name: str = field(default="mrpc")
    max_seq_length: int = field(default=128)


def main():
    parser = HfArgumentParser((ModelArguments, TFTrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()

    raw = load_dataset("glue", model_args.task_name)
    tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path)

    def preprocess(examples):
        return tokenizer(examples["sentence1"], examples["sentence2"],
                         truncation=True, max_length=model_args.max_seq_length)

    tokenized = raw.map(preprocess, batched=True)
    num_labels = raw["train"].features["label"].num_classes

    with training_args.strategy.scope():
        model = TFAutoModelForSequenceClassification.from_pretrained(
            model_args.model_name_or_path, num_labels=num_labels)

    total_batch_size = training_args.per_device_train_batch_size * training_args.strategy.num_replicas_in_sync
    tf_train = model.prepare_tf_dataset(tokenized["train"], shuffle=True,
                                        batch_size=total_batch_size, tokenizer=tokenizer)
    tf_eval = model.prepare_tf_dataset(tokenized["validation"], shuffle=False,
                                       batch_size=total_batch_size, tokenizer=tokenizer)

    num_train_steps = len(tf_train) * int(training_args.num_train_epochs)
    schedule = tf.keras.optimizers.schedules.PolynomialDecay(
        initial_learning_rate=training_args.learning_rate, decay_steps=num_train_steps, end_learning_rate=0.0)

    model.compile(  # expect: MG102
        optimizer=tf.keras.optimizers.Adam(learning_rate=schedule),
        metrics=["accuracy"],
        jit_compile=training_args.xla,
    )

    model.fit(tf_train, validation_data=tf_eval, epochs=int(training_args.num_train_epochs))
    eval_metrics = model.evaluate(tf_eval, return_dict=True)
    print(eval_metrics)
    model.save_pretrained(training_args.output_dir)


if __name__ == "__main__":
    main()
