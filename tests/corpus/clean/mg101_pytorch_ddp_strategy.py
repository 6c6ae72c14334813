"""PyTorch Lightning trainer; `strategy="ddp"` is Lightning's, not TensorFlow's."""
import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class LitMLP(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y).mean()
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


dataset = TensorDataset(torch.randn(1024, 32), torch.randn(1024, 1))
loader = DataLoader(dataset, batch_size=64, shuffle=True)
strategy = "ddp" if torch.cuda.device_count() > 1 else "auto"
trainer = L.Trainer(max_epochs=2, accelerator="auto", devices="auto", strategy=strategy)
trainer.fit(LitMLP(), loader)
